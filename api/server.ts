// Builds the dependencies from open stores and serves the app over HTTP, with graceful shutdown:
// stop accepting, let in-flight requests finish, then close the stores.
import http from 'node:http';
import { hotPath } from './http/hotPath.js';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import { createPortalApp } from './portal/app.js';
import { createPriceStream } from './stream/priceStream.js';
import { createStatusMonitor } from './status/monitor.js';
import { secretBox } from '../ingest/events/signing.js';
import { loadVapidKeys } from '../ingest/events/push.js';
import { createCache } from './cache.js';
import type { Config } from '../schemas/config.js';
import { createAnalytics } from '../sql/stores/analytics.js';
import { precomputedAnalytics } from './legacy/precomputedAnalytics.js';
import { createDb } from '../sql/stores/db.js';
import type { Logger } from '../sql/runtime/log.js';
import type { Stores } from '../sql/stores/index.js';
import type { AppDeps } from './deps.js';
import { adminGuard } from './http/adminToken.js';
import { loadOrCreateSecret } from '../sql/runtime/secrets.js';
import { loadKeyring } from '../sql/runtime/signingKeys.js';
import { createTokens } from '../sql/runtime/signedTokens.js';
import { createKeyCache } from './auth/keyCache.js';
import { ImageStore } from '../sql/stores/images.js';
import { LiveRecognitionIndex } from '../ingest/recognition/indexLoad.js';
import { RecognitionThreads } from '../ingest/recognition/passWorkers.js';
import { ingestOperations } from '../workflows/operations.js';

export type RunningServer = { url: string; port: number; portalUrl: string; deps: AppDeps; close(): Promise<void> };

export async function buildDeps(config: Config, stores: Stores, log: Logger): Promise<AppDeps> {
  const db = createDb(stores.pg.pool);
  const keyCache = await createKeyCache(stores.redis, config.redisPrefix);
  const keys = await loadKeyring(config);
  // The key ids only (never a key): which key signs, and which older ones still verify.
  log.info('token signing keys', { kid: keys.current.kid, previous: keys.previous.map((k) => k.kid) });
  const analytics = createAnalytics(stores.ch.client, { readonly: stores.ch.kind === 'external', isClosed: () => stores.ch.closed() });
  const cache = await createCache(stores.redis, config.redisPrefix);
  const deps = {
    config,
    log,
    stores,
    db,
    analytics,
    cache,
    precomputed: precomputedAnalytics(db, analytics, () => cache.epoch()),
    images: new ImageStore(path.join(config.dataDir, 'images')),
    recognitionIndex: new LiveRecognitionIndex(db),
    recognitionThreads: new RecognitionThreads(config.recognitionThreads, log),
    counters: { total: 0, inFlight: 0, byStatus: {}, startedAt: Date.now() },
    ingestion: null,
    ingest: ingestOperations(config),
    admin: await adminGuard(config),
    tokens: await createTokens(keys),
    keyCache,
    webhookBox: secretBox((await loadOrCreateSecret(config.dataDir, 'webhook-key', config.webhookKey)).value),
    vapid: await loadVapidKeys(config),
    stream: await createPriceStream(
      { db, redis: stores.redis, redisPrefix: config.redisPrefix, keyCache, log },
      { pingIntervalMs: config.wsPingSeconds * 1000, maxConnectionsPerKey: config.wsMaxConnectionsPerKey },
    ),
  };
  // The same object: the monitor sees what is set on deps later (main.ts sets ingestion).
  return Object.assign(deps, { status: createStatusMonitor(deps) });
}

async function closeServer(server: http.Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // In-flight requests get up to 10 s; then the remaining sockets are cut.
  const timer = setTimeout(() => server.closeAllConnections(), 10_000);
  await closed;
  clearTimeout(timer);
}

/**
 * Serves the API on `port` and the developer portal on `portalPort` (its own origin). Port 0 picks
 * free ports for both, as tests do.
 */
export async function startServer(
  deps: AppDeps,
  port: number,
  host: string,
  portalPort = port === 0 ? 0 : deps.config.portalPort,
): Promise<RunningServer> {
  // Each side links to the other, so both addresses are fixed before either app is built.
  const api = http.createServer();
  const portal = http.createServer();
  for (const server of [api, portal]) {
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
    server.requestTimeout = 30_000;
  }
  const listen = (server: http.Server, p: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(p, host, () => resolve((server.address() as AddressInfo).port));
    });
  const apiPort = await listen(api, port);
  const actualPortalPort = await listen(portal, portalPort).catch(async (err) => {
    await closeServer(api);
    throw err;
  });
  const url = `http://${host}:${apiPort}`;
  const portalUrl = deps.config.portalUrl ?? `http://${host}:${actualPortalPort}`;
  // Behind a proxy (production) the portal links to the site's public origin, else to this server.
  const publicApiUrl = deps.config.env === 'production' ? deps.config.siteOrigin : url;
  const { app, document } = createApp(deps, { portalUrl });
  api.on('request', hotPath(deps, app.callback()));
  deps.stream.attach(api);
  deps.status.start();
  portal.on('request', createPortalApp(deps, { apiUrl: publicApiUrl, apiDocument: document }).callback());
  return {
    url,
    port: apiPort,
    portalUrl,
    deps,
    close: async () => {
      await deps.status.stop();
      await deps.stream.close();
      await Promise.all([closeServer(api), closeServer(portal)]);
      await deps.cache.close();
      await deps.ingest.close();
      await deps.keyCache.close();
      await deps.recognitionThreads.close();
    },
  };
}
