// /openapi.json, generated from the same route declarations that validate requests.
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { Route } from './route.js';

export type DocumentInfo = { title: string; version: string; description: string };

export const API_DESCRIPTION =
  'Trading-card market data. The v2 data surface is read-only and needs no credentials. Errors are `{detail}`; validation errors are 422 `{detail: [{loc, msg, type}]}`; 503 `{detail: "holo_data_unavailable"}` when a data store is unreachable. v2 query parameters are strict: an unknown parameter is a 422 with type `value_error.extra`, so a misspelt filter never silently returns unfiltered data.';

export function buildOpenApiDocument(routes: Route[], info: DocumentInfo): object {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key (holo_…) as a bearer token; the api_key query parameter also works but leaks into logs',
  });
  registry.registerComponent('securitySchemes', 'apiKeyHeader', { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  registry.registerComponent('securitySchemes', 'sessionCookie', {
    type: 'apiKey',
    in: 'cookie',
    name: 'tcg_session',
    description: 'The website session (POST /auth/login); not rate limited',
  });
  registry.registerComponent('securitySchemes', 'adminToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'Operator token (HOLO_ADMIN_TOKEN, or the one generated into HOLO_DATA_DIR/admin-token); admin accounts work too',
  });
  for (const r of routes) r.document(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info,
    servers: [{ url: '/' }],
  });
}
