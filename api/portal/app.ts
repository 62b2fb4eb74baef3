// The developer portal: its own Koa application on its own origin (its own port locally), sharing
// the API's stores, accounts and sessions. Form posts are urlencoded; errors keep the API's
// shapes for programs ({detail}, 422 {detail: [...]}) and become a page for browsers.
import fs from 'node:fs';
import path from 'node:path';
import Router from '@koa/router';
import Koa, { type Context, type Middleware } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import type { AppDeps } from '../deps.js';
import { rateLimit } from '../auth/rateLimit.js';
import { repoRoot } from '../../sql/runtime/paths.js';
import { buildOpenApiDocument } from '../http/openapi.js';
import type { ValidationIssue } from '../http/errors.js';
import { errorHandler } from '../middleware/errors.js';
import { requestContext } from '../middleware/requestContext.js';
import { securityHeaders } from '../middleware/securityHeaders.js';
import { createCsrf } from './csrf.js';
import type { OpenApiDocument } from './docs.js';
import { errorPage } from './pages.js';
import { portalRoutes, portalSession, type PortalSession } from './routes.js';
import { proxySettings } from '../http/clientAddress.js';

export const PORTAL_VERSION = '0.1.0';

const STYLESHEET = fs.readFileSync(path.join(repoRoot, 'api', 'portal', 'assets', 'portal.css'), 'utf8');

// No script anywhere, styles only from our own stylesheet, forms only to ourselves, never framed;
// no Referer leaves a page that may show a new key.
const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

// Where "Go back" leads from a failed request.
function backFrom(p: string): string {
  if (p === '/enable') return '/enable';
  if (p.startsWith('/keys/')) return '/dashboard';
  if (p === '/login' || p === '/register') return '/#sign-in';
  return '/';
}

/** A browser (Accept prefers HTML) gets a failed request as a page with the same status and messages. */
function errorsAsPages(apiUrl: string): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.status < 400 || ctx.accepts('json', 'html') !== 'html' || ctx.path === '/openapi.json') return;
    const detail = (ctx.body as { detail?: string | ValidationIssue[] } | undefined)?.detail;
    const problems = Array.isArray(detail)
      ? detail.map((i) => `${i.loc.slice(1).join('.') || i.loc.join('.')}: ${i.msg}`)
      : [detail ?? 'Error'];
    const status = ctx.status;
    const session = ctx.state.portalSession as PortalSession | undefined;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = errorPage({ user: session?.user ?? null, csrf: '', path: ctx.path, apiUrl }, status, problems, backFrom(ctx.path));
    ctx.status = status;
  };
}

export function createPortalApp(deps: AppDeps, opts: { apiUrl: string; apiDocument: object }): Koa {
  const app = new Koa(proxySettings(deps.config.trustedProxyHops));
  const router = new Router();
  const routes = portalRoutes(deps, {
    apiUrl: opts.apiUrl,
    apiDocument: opts.apiDocument as OpenApiDocument,
    csrf: createCsrf(deps.tokens),
  });
  const auth = {
    db: deps.db,
    redis: deps.stores.redis,
    redisPrefix: deps.config.redisPrefix,
    anonymousPerMinute: deps.config.anonymousPerMinute,
  };
  // Every portal route adapts to the visitor itself; visitors without a session are limited per address.
  const checkAccess = async (_access: unknown, ctx: Context) => {
    if (!(await portalSession(ctx, deps))) await rateLimit(ctx, { kind: 'anonymous' }, auth);
  };
  for (const r of routes) r.mount(router, checkAccess, deps.cache);
  const openapi = JSON.stringify(
    buildOpenApiDocument(routes, {
      title: 'Holo developer portal',
      version: PORTAL_VERSION,
      description: `Pages where developers enable API access and manage their keys. Forms are application/x-www-form-urlencoded and carry csrf_token (a signed double-submit token bound to the session: take it from the page or GET /login, with the holo_csrf cookie). Errors: {detail}, 422 {detail: [{loc, msg, type}]}; a browser (Accept: text/html) gets them as a page with the same status. The API itself: ${opts.apiUrl}/openapi.json.`,
    }),
  );
  // Plain Koa handlers, not defineRoute: the document describes the routes, so it is not one of
  // them; the stylesheet is a static asset of the pages, no part of the portal's contract.
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = openapi;
  });
  router.get('/static/portal.css', (ctx) => {
    ctx.type = 'text/css; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = STYLESHEET;
  });

  app.use(requestContext(deps.log, deps.counters));
  app.use(securityHeaders(SECURITY_HEADERS));
  app.use(errorsAsPages(opts.apiUrl));
  app.use(errorHandler(deps.log));
  const bodyParser = koaBody({
    json: false,
    urlencoded: true,
    multipart: false,
    text: false,
    formLimit: '16kb',
    parsedMethods: [HttpMethodEnum.POST],
  });
  app.use((ctx, next) => (ctx.method === 'POST' ? bodyParser(ctx, next) : next()));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
