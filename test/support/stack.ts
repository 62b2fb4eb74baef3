// A real Holo for one test file: its own data directory, its own PostgreSQL database (embedded,
// or a fresh database on DATABASE_URL's server), its own Redis key prefix, chDB in-process, the
// small demo catalogue with 365 days of history, and the API on a free port. Under the suite
// runner the data directory starts as a copy of this run's template (stackTemplate.ts).
import { createUpstreams, type Upstreams } from '../../ingest/upstreams/registry.js';
import type { IngestDeps } from '../../ingest/pipeline.js';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../schemas/config.js';
import { createLogger, type Logger } from '../../sql/runtime/log.js';
import { migrateClickHouse, migratePostgres } from '../../sql/stores/migrate.js';
import { openStores, type Stores } from '../../sql/stores/index.js';
import { buildDeps, startServer, type RunningServer } from '../../api/server.js';
import { loadDemoDataIfEmpty } from '../../ingest/demo/index.js';
import { repoRoot } from '../../sql/runtime/paths.js';
import { freePort } from '../../sql/runtime/ports.js';
import type { LoadTargets } from '../../ingest/load/pricePoints.js';
import { announcePricesLanded } from '../../sql/stores/priceChannels.js';
import { call, type Call } from './http.js';
import type { ResponseBody } from './routeTypes.js';
import { copyTemplate, createDatabase, indexDemoPictures, stackTemplate, templatesDir } from './stackTemplate.js';

export type Stack = {
  config: Config;
  stores: Stores;
  server: RunningServer;
  url: string;
  logLines: string[];
  get(pathAndQuery: string, headers?: Record<string, string>): Promise<Response>;
  /** GET as JSON, answered with the body type of the route it reaches (support/http.ts call). */
  json<const Path extends string>(pathAndQuery: Path): Promise<Call<ResponseBody<'GET', Path>>>;
  /** Where the production write path (loadPricePoints) writes, for tests that load prices themselves. */
  loadTargets(): LoadTargets;
  /** What a price ingestion needs: the load targets and the upstreams as configured (the mirror at HOLO_FEEDS_PORT with demo data). */
  ingestDeps(): IngestDeps;
  close(): Promise<void>;
};

/** A database of its own on the server of `serverUrl` (created empty unless a template creates it). */
function databaseOf(serverUrl: string): string {
  const u = new URL(serverUrl);
  u.pathname = `/holo_test_${crypto.randomBytes(5).toString('hex')}`;
  return u.toString();
}

export type StackOptions = {
  embeddedPostgres?: boolean;
  demo?: 'small' | 'none';
  anonymousPerMinute?: number;
  env?: Record<string, string>;
  /** The stack's first start itself is under test (the demo load and its log): never from a template. */
  fresh?: boolean;
  /** Every demo card picture indexed for recognition before the API starts (built once per run under the suite). */
  recognitionIndex?: boolean;
};

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'holo-test-'));
  await fs.chmod(dataDir, 0o755);
  const externalPg = process.env.DATABASE_URL && !opts.embeddedPostgres ? databaseOf(process.env.DATABASE_URL) : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    HOLO_DATA_DIR: dataDir,
    HOLO_DEMO: opts.demo ?? 'small',
    HOLO_DEMO_HISTORY_DAYS: '365',
    HOLO_EMBEDDED_PG_PORT: String(await freePort()),
    // A test's Temporal (TemporalRig) listens here, so the API's own client reaches it. Every port
    // a stack may open is a free one, so the suite runs beside `npm start` and beside another suite.
    HOLO_TEMPORAL_PORT: String(await freePort()),
    HOLO_TEMPORAL_UI_PORT: String(await freePort()),
    HOLO_FEEDS_PORT: String(await freePort()),
    HOLO_PORTAL_PORT: String(await freePort()),
    TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS,
    HOLO_SHARED_DATA_DIR: path.resolve(repoRoot, '..', 'shared', 'data'),
    HOLO_REDIS_PREFIX: `t${crypto.randomBytes(4).toString('hex')}`,
    DATABASE_URL: externalPg,
    REDIS_URL: process.env.REDIS_URL,
    HOLO_LOG_LEVEL: 'info',
    // Tests call far more than 30 times a minute from one address; the limiter's own tests set it.
    HOLO_ANONYMOUS_RATE_LIMIT: String(opts.anonymousPerMinute ?? 1_000_000),
    // Every test's requests come from 127.0.0.1: address-wide login and registration limits would
    // join unrelated tests; the throttling tests set them (per-account limits stay as shipped).
    HOLO_LOGIN_FAILURES_PER_ADDRESS: '1000000',
    HOLO_REGISTRATIONS_PER_ADDRESS: '1000000',
    ...opts.env,
  });
  const logLines: string[] = [];
  const log: Logger = createLogger(config.logLevel, {}, (line) => {
    logLines.push(line);
    if (logLines.length > 5000) logLines.shift();
  });
  const folder = opts.fresh ? undefined : templatesDir();
  const template = folder
    ? await stackTemplate(folder, {
        demo: config.demo,
        demoHistoryDays: String(config.demoHistoryDays),
        sharedDataDir: config.sharedDataDir,
        nodeEnv: config.env,
        postgresServer: externalPg ? process.env.DATABASE_URL! : null,
        recognitionIndex: opts.recognitionIndex ?? false,
      })
    : undefined;
  if (template) await copyTemplate(template, dataDir, externalPg);
  else if (externalPg) await createDatabase(externalPg);
  const stores = await openStores(config, log);
  await migratePostgres(stores.pg, log);
  await migrateClickHouse(stores.ch, log);
  await loadDemoDataIfEmpty(config, stores, log);
  // The load announced its prices under the template's key prefix; this stack's caches key on its own.
  if (template && config.demo !== 'none') await announcePricesLanded(stores.redis, config.redisPrefix);
  if (!template && opts.recognitionIndex) await indexDemoPictures(config, stores);
  const deps = await buildDeps(config, stores, log);
  const server = await startServer(deps, 0, '127.0.0.1');
  let closed = false;
  let upstreams: Upstreams | undefined;
  return {
    config,
    stores,
    server,
    url: server.url,
    logLines,
    get: (p, headers = {}) => fetch(server.url + p, { headers }),
    json: (p) => call(server, 'GET', p),
    loadTargets: () => ({ ch: stores.ch.client, pool: stores.pg.pool, redis: stores.redis, redisPrefix: config.redisPrefix }),
    ingestDeps: () => ({
      ch: stores.ch.client,
      pool: stores.pg.pool,
      redis: stores.redis,
      redisPrefix: config.redisPrefix,
      upstreams: (upstreams ??= createUpstreams(config.upstreams)),
      log,
    }),
    async close() {
      if (closed) return;
      closed = true;
      await server.close().catch(() => undefined);
      await stores.close().catch(() => undefined);
      await fs.rm(dataDir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}
