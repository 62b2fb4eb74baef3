// The Koa application: middleware declared once, in order, then every resource's routes.
import http from 'node:http';
import Router from '@koa/router';
import Koa, { type Context } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import type { AppDeps } from './deps.js';
import { guard } from './auth/guard.js';
import { type Access } from './auth/principal.js';
import { allowedMethods } from './http/allowedMethods.js';
import { API_DESCRIPTION, buildOpenApiDocument } from './http/openapi.js';
import type { Route } from './http/route.js';
import { notModified } from './http/hotResponses.js';
import { cors } from './middleware/cors.js';
import { errorHandler } from './middleware/errors.js';
import { localeRedirect } from './middleware/localeRedirect.js';
import { mountPortalRedirect } from './middleware/portalRedirect.js';
import { requestContext } from './middleware/requestContext.js';
import { API_SECURITY_HEADERS, securityHeaders } from './middleware/securityHeaders.js';
import { adminIngestRoutes } from './routes/admin/ingest.js';
import { authRoutes } from './routes/auth.js';
import { healthRoutes } from './routes/health.js';
import { streamRoutes } from './routes/stream.js';
import { keyRoutes } from './routes/keys.js';
import { alertRoutes } from './routes/alerts.js';
import { sellerRoutes } from './routes/marketplace/sellers.js';
import { listingRoutes } from './routes/marketplace/listings.js';
import { saleRoutes } from './routes/marketplace/sales.js';
import { paymentRoutes } from './routes/payments.js';
import { collectionRoutes } from './routes/collection.js';
import { wishlistRoutes } from './routes/wishlist.js';
import { profileRoutes } from './routes/profiles.js';
import { recognitionRoutes } from './routes/recognition.js';
import { scanSessionRoutes } from './routes/scanSessions.js';
import { deckRoutes } from './routes/decks.js';
import { messageRoutes } from './routes/marketplace/messages.js';
import { notificationRoutes } from './routes/notifications.js';
import { webhookRoutes } from './routes/webhooks.js';
import { adminOutboxRoutes } from './routes/admin/outbox.js';
import { adminKeyRoutes } from './routes/admin/keys.js';
import { appVersionRoutes } from './routes/appVersions.js';
import { statusRoutes } from './routes/status.js';
import { legacyCatalogueRoutes } from './routes/legacy/catalogue.js';
import { legacyPriceRoutes } from './routes/legacy/prices.js';
import { marketRoutes } from './routes/market.js';
import { mountImageRoutes } from './routes/images.js';
import { cardRoutes } from './routes/v2/cards.js';
import { gameRoutes } from './routes/v2/games.js';
import { setRoutes } from './routes/v2/sets.js';
import { statsRoutes } from './routes/v2/stats.js';
import { syncRoutes } from './routes/v2/sync.js';
import { pokemontcgRoutes } from './routes/compat/pokemontcg.js';
import { clickhouseHttpRoutes } from './clickhouse/httpInterface.js';
import { bulkRoutes } from './routes/bulk.js';
import { proxySettings } from './http/clientAddress.js';

export const VERSION = '0.1.0';

/** Every route of the API, in mount order (also what the access tests walk); each keeps its method, path and body type. */
export function allRoutes(deps: AppDeps) {
  return [
    ...healthRoutes(deps, VERSION),
    ...streamRoutes(),
    ...statsRoutes(deps),
    ...gameRoutes(deps),
    ...setRoutes(deps),
    ...cardRoutes(deps),
    ...syncRoutes(deps),
    ...pokemontcgRoutes(deps),
    ...clickhouseHttpRoutes(deps),
    ...bulkRoutes(deps),
    ...adminIngestRoutes(deps),
    ...authRoutes(deps),
    ...keyRoutes(deps),
    ...alertRoutes(deps),
    ...sellerRoutes(deps),
    ...listingRoutes(deps),
    ...saleRoutes(deps),
    ...paymentRoutes(deps),
    ...collectionRoutes(deps),
    ...wishlistRoutes(deps),
    ...profileRoutes(deps),
    ...recognitionRoutes(deps),
    ...scanSessionRoutes(deps),
    ...deckRoutes(deps),
    ...messageRoutes(deps),
    ...notificationRoutes(deps),
    ...webhookRoutes(deps),
    ...adminOutboxRoutes(deps),
    ...adminKeyRoutes(deps),
    ...appVersionRoutes(deps),
    ...statusRoutes(deps),
    ...legacyPriceRoutes(deps),
    ...marketRoutes(deps),
    // Last: its /{tcg_slug}/... paths would otherwise shadow fixed two-segment paths.
    ...legacyCatalogueRoutes(deps),
  ];
}

/** The main service's OpenAPI document, from the same routes the app mounts. */
const apiDocumentOf = (routes: Route[]) =>
  buildOpenApiDocument(routes, { title: 'Holo API', version: VERSION, description: API_DESCRIPTION });

/** The API app, and its OpenAPI document (served at /openapi.json, rendered by the portal's /docs). */
export function createApp(deps: AppDeps, opts: { portalUrl: string }): { app: Koa; document: object } {
  const app = new Koa(proxySettings(deps.config.trustedProxyHops));
  const routes = allRoutes(deps);
  // Every method Node's parser accepts (TRACE, QUERY, PROPFIND, …) is known to the router, so an
  // unlisted one gets the 405 and Allow of any wrong method (the spec's error model) instead of 501.
  const router = new Router({ methods: [...http.METHODS] });
  const auth = {
    db: deps.db,
    redis: deps.stores.redis,
    redisPrefix: deps.config.redisPrefix,
    tokens: deps.tokens,
    admin: deps.admin,
    anonymousPerMinute: deps.config.anonymousPerMinute,
    keyCache: deps.keyCache,
  };
  const checkAccess = (access: Access, ctx: Context) => guard(ctx, access, auth);
  // First: /dev/<page> must not fall to the legacy catalogue's /{tcg_slug}/... routes.
  mountPortalRedirect(router, opts.portalUrl);
  for (const r of routes) r.mount(router, checkAccess, deps.cache);
  mountImageRoutes(router, deps, deps.images);
  const document = apiDocumentOf(routes);
  const openapi = JSON.stringify(document);
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = openapi;
  });

  app.use(requestContext(deps.log, deps.counters));
  app.use(securityHeaders(API_SECURITY_HEADERS));
  app.use(errorHandler(deps.log));
  app.use(cors(deps.config.siteOrigin));
  // A URL a hot route answered under this prices epoch: its bytes again, after the same access
  // check, without routing, validation or the handler (api/http/hotResponses.ts).
  app.use(async (ctx, next) => {
    const hit = ctx.method === 'GET' || ctx.method === 'HEAD' ? deps.cache.hot.get(ctx.url) : undefined;
    if (hit === undefined) return next();
    await checkAccess(hit.access, ctx);
    ctx.set(hit.headers);
    ctx.body = hit.body;
    if (notModified(ctx.headers, hit.etag)) ctx.status = 304;
  });
  app.use(localeRedirect());
  // JSON bodies only, small: no route takes more than a few fields yet.
  const bodyParser = koaBody({
    json: true,
    urlencoded: false,
    multipart: false,
    text: false,
    jsonLimit: '64kb',
    jsonStrict: true,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
  });
  // A body that is not JSON is the route's validation error (its own 422 or 400, documented), not
  // koa-body's bare 400; routes without a body ignore it. Routes that read raw bytes (a signed
  // webhook) have fixed paths and get the stream untouched.
  const rawBodyPaths = new Set<string>(routes.filter((r) => r.rawBody).map((r) => r.path));
  app.use(async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && !rawBodyPaths.has(ctx.path.replace(/(.)\/$/, '$1'))) {
      try {
        await bodyParser(ctx, async () => undefined);
      } catch (err) {
        if ((err as { status?: number }).status !== 400) throw err;
        ctx.state.bodyUnreadable = true;
      }
    }
    await next();
  });
  app.use(allowedMethods(routes));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return { app, document };
}
