// Each route is declared once: its zod request and response schemas validate the request, type
// the handler and describe the route in /openapi.json.
import type Router from '@koa/router';
import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { Context } from 'koa';
import { z } from 'zod';
import { ErrorResponse, ValidationErrorResponse } from '../../schemas/common.js';
import { fromZod } from './errors.js';

type AnyObject = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

export type RouteSpec<P extends AnyObject, Q extends AnyObject, R extends z.ZodType> = {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI-style path, e.g. /api/v2/cards/{card_id} */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: P;
  query?: Q;
  response: R;
  /** Cache-Control max-age for successful responses; undefined sends no-store. */
  maxAge?: number;
  errors?: number[];
  handler: (input: { params: z.output<P>; query: z.output<Q>; ctx: Context }) => Promise<z.input<R> | string>;
};

export type Route = {
  mount(router: Router): void;
  document(registry: OpenAPIRegistry): void;
};

const koaPath = (p: string) => p.replace(/\{(\w+)\}/g, ':$1');

// api_key is an authentication parameter accepted on every route (spec, Authentication 5), not
// part of any route's own query.
function ownQuery(ctx: Context): Record<string, unknown> {
  if (ctx.querystring === '') return {};
  const { api_key: _apiKey, ...rest } = ctx.query;
  return rest;
}

export function defineRoute<P extends AnyObject = AnyObject, Q extends AnyObject = AnyObject, R extends z.ZodType = z.ZodType>(
  spec: RouteSpec<P, Q, R>,
): Route {
  return {
    mount(router) {
      const cacheControl = spec.maxAge ? `public, max-age=${spec.maxAge}` : 'no-store';
      router[spec.method](koaPath(spec.path), async (ctx) => {
        const params = spec.params ? spec.params.safeParse(ctx.params) : { success: true as const, data: {} };
        if (!params.success) throw fromZod('path', params.error, ctx.params);
        const rawQuery = ownQuery(ctx);
        const query = spec.query ? spec.query.safeParse(rawQuery) : { success: true as const, data: {} };
        if (!query.success) throw fromZod('query', query.error, rawQuery);
        const body = await spec.handler({ params: params.data as z.output<P>, query: query.data as z.output<Q>, ctx });
        ctx.status = 200;
        ctx.set('Cache-Control', cacheControl);
        if (typeof body === 'string') {
          // Pre-serialised JSON from the cache: sent as is, never parsed again.
          ctx.type = 'application/json';
          ctx.body = body;
        } else {
          ctx.body = body;
        }
      });
    },
    document(registry) {
      const responses: RouteConfig['responses'] = {
        200: { description: 'OK', content: { 'application/json': { schema: spec.response } } },
        422: { description: 'Validation error', content: { 'application/json': { schema: ValidationErrorResponse } } },
      };
      for (const status of spec.errors ?? []) {
        responses[status] = { description: statusText[status] ?? 'Error', content: { 'application/json': { schema: ErrorResponse } } };
      }
      registry.registerPath({
        method: spec.method,
        path: spec.path,
        summary: spec.summary,
        description: spec.description,
        tags: spec.tags,
        request: { params: spec.params as never, query: spec.query as never },
        responses,
      });
    },
  };
}

const statusText: Record<number, string> = {
  404: 'Not found',
  503: 'Data store unavailable: detail is holo_data_unavailable',
};
