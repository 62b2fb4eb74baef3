// The Koa application: middleware declared once, in order, then every resource's routes.
import Router from '@koa/router';
import Koa, { type Context } from 'koa';
import { koaBody } from 'koa-body';
import type { AppDeps } from './deps.js';
import { buildOpenApiDocument } from './http/openapi.js';
import type { Route } from './http/route.js';
import { cors } from './middleware/cors.js';
import { errorHandler } from './middleware/errors.js';
import { localeRedirect } from './middleware/localeRedirect.js';
import { requestContext } from './middleware/requestContext.js';
import { adminIngestRoutes } from './routes/admin/ingest.js';
import { healthRoutes } from './routes/health.js';
import { legacyCatalogueRoutes } from './routes/legacy/catalogue.js';
import { legacyPriceRoutes } from './routes/legacy/prices.js';
import { marketRoutes } from './routes/market.js';
import { mountImageRoutes } from './routes/images.js';
import { cardRoutes } from './routes/v2/cards.js';
import { gameRoutes } from './routes/v2/games.js';
import { setRoutes } from './routes/v2/sets.js';
import { statsRoutes } from './routes/v2/stats.js';

export const VERSION = '0.1.0';

export function createApp(deps: AppDeps): Koa {
  const app = new Koa({ proxy: false });
  const routes: Route[] = [
    ...healthRoutes(deps, VERSION),
    ...statsRoutes(deps),
    ...gameRoutes(deps),
    ...setRoutes(deps),
    ...cardRoutes(deps),
    ...adminIngestRoutes(deps),
    ...legacyPriceRoutes(deps),
    ...marketRoutes(deps),
    // Last: its /{tcg_slug}/... paths would otherwise shadow fixed two-segment paths.
    ...legacyCatalogueRoutes(deps),
  ];
  const router = new Router();
  const checkAccess = (access: 'free' | 'admin', ctx: Context) => {
    if (access === 'admin') deps.admin.check(ctx);
  };
  for (const r of routes) r.mount(router, checkAccess);
  mountImageRoutes(router, deps, deps.images);
  const openapi = JSON.stringify(buildOpenApiDocument(routes, VERSION));
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = openapi;
  });

  app.use(requestContext(deps.log, deps.counters));
  app.use(errorHandler(deps.log));
  app.use(cors(deps.config.siteOrigin));
  app.use(localeRedirect());
  // JSON bodies only, small: no route takes more than a few fields yet.
  app.use(koaBody({ json: true, urlencoded: false, multipart: false, text: false, jsonLimit: '64kb', jsonStrict: true }));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
