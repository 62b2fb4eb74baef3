// Builds the dependencies from open stores and serves the app over HTTP, with graceful shutdown:
// stop accepting, let in-flight requests finish, then close the stores.
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import { createCache } from './core/cache.js';
import type { Config } from './core/config.js';
import { createAnalytics, createDb } from './core/data.js';
import type { Logger } from './core/log.js';
import type { Stores } from './core/stores/index.js';
import type { AppDeps } from './deps.js';
import { adminGuard } from './http/adminToken.js';
import { loadOrCreateSecret } from './core/secrets.js';
import { createKeyCache } from './auth/keyCache.js';
import { ImageStore } from './images/store.js';
import { ingestOperations } from '../workflows/operations.js';

export type RunningServer = { url: string; port: number; deps: AppDeps; close(): Promise<void> };

export async function buildDeps(config: Config, stores: Stores, log: Logger): Promise<AppDeps> {
  return {
    config,
    log,
    stores,
    db: createDb(stores.pg.pool),
    analytics: createAnalytics(stores.ch.client, { readonly: stores.ch.kind === 'external', isClosed: stores.ch.closed }),
    cache: await createCache(stores.redis, config.redisPrefix),
    images: new ImageStore(path.join(config.dataDir, 'images')),
    counters: { total: 0, inFlight: 0, byStatus: {}, startedAt: Date.now() },
    ingest: ingestOperations(config),
    admin: await adminGuard(config),
    sessionSecret: (await loadOrCreateSecret(config.dataDir, 'session-secret', config.sessionSecret)).value,
    keyCache: await createKeyCache(stores.redis, config.redisPrefix),
  };
}

export async function startServer(deps: AppDeps, port: number, host: string): Promise<RunningServer> {
  const app = createApp(deps);
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${actual}`,
    port: actual,
    deps,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // In-flight requests get up to 10 s; then the remaining sockets are cut.
      const timer = setTimeout(() => server.closeAllConnections(), 10_000);
      await closed;
      clearTimeout(timer);
      await deps.cache.close();
      await deps.ingest.close();
      await deps.keyCache.close();
    },
  };
}
