// npm start: open the stores (embedded defaults when no URL is set), migrate, load the demo data
// into an empty data directory, serve the API, and print where to look.
import { loadConfig, ConfigError } from '../schemas/config.js';
import { createLogger, errorFields } from '../sql/runtime/log.js';
import { migrateClickHouse, migratePostgres } from '../sql/migrate.js';
import { openStores } from '../sql/stores/index.js';
import { buildDeps, startServer } from './server.js';
import { loadDemoDataIfEmpty } from '../ingest/demo/index.js';
import { startIngestion, type Ingestion } from '../workflows/ingestion.js';

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  throw err;
}
const log = createLogger(config.logLevel);
const stores = await openStores(config, log);
let shuttingDown = false;
try {
  await migratePostgres(stores.pg, log);
  await migrateClickHouse(stores.ch, log);
  await loadDemoDataIfEmpty(config, stores, log);
} catch (err) {
  log.error('start-up failed', errorFields(err));
  await stores.close().catch(() => undefined);
  process.exit(1);
}
const deps = await buildDeps(config, stores, log);
const server = await startServer(deps, config.port, config.host, config.portalPort);
// With embedded chDB the worker must live here; with a ClickHouse server it runs as its own
// service (workflows/main.ts) unless HOLO_INGEST=on asks for it here too.
let ingestion: Ingestion | null = null;
if (config.ingest === 'on' || (config.ingest === 'auto' && !config.clickhouseUrl)) {
  try {
    ingestion = await startIngestion(config, stores, log);
  } catch (err) {
    log.error('ingestion failed to start; set HOLO_INGEST=off to run the API without it', errorFields(err));
    await server.close();
    await stores.close();
    process.exit(1);
  }
}
const base = server.url;
process.stdout.write(
  [
    '',
    `Holo is up (data in ${config.dataDir}; postgres ${stores.pg.kind}, clickhouse ${stores.ch.kind}, redis ${stores.redis.kind})`,
    `  API            ${base}/api/v2/games`,
    `  A card         ${base}/api/v2/cards/1`,
    `  Card history   ${base}/api/v2/cards/1/history?region=global&days=365`,
    `  Stats          ${base}/api/v2/stats`,
    `  Health         ${base}/api/health`,
    `  OpenAPI        ${base}/openapi.json`,
    `  Dev portal     ${server.portalUrl}/  (sign up, enable access, create a key)`,
    ...(ingestion
      ? [
          `  Temporal UI    ${ingestion.temporal.uiUrl ?? `(external cluster ${ingestion.temporal.address})`}`,
          `  Market feeds   ${ingestion.feedsUrl}/feeds/pokemontcg/pokemon/${new Date().toISOString().slice(0, 10)}.json`,
          `  Operators      npm run ingest -- status | run | schedules | pause | resume | backfill`,
          `  Admin API      ${base}/api/admin/ingest/runs  (Authorization: Bearer ${deps.admin.tokenFile ? `$(cat ${deps.admin.tokenFile})` : '$HOLO_ADMIN_TOKEN'})`,
        ]
      : ['  Ingestion      off (HOLO_INGEST=off)']),
    '',
  ].join('\n') + '\n',
);

async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  log.info('shutting down', { signal });
  await server.close();
  await ingestion?.stop().catch(() => undefined);
  await stores.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
