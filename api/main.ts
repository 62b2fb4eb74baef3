// npm start: open the stores (embedded defaults when no URL is set), migrate, load the demo data
// into an empty data directory, serve the API, and print where to look.
import { loadConfig, ConfigError } from '../schemas/config.js';
import { createLogger, errorFields } from '../sql/runtime/log.js';
import { migrateClickHouse, migratePostgres } from '../sql/stores/migrate.js';
import { openStores } from '../sql/stores/index.js';
import { leaveStopSignalsToCaller } from '../sql/stores/postgres.js';
import { buildDeps, startServer } from './server.js';
import { loadDemoDataIfEmpty } from '../ingest/demo/index.js';
import { warmRecognition } from '../ingest/recognition/warm.js';
import { superviseIngestion, type Ingestion, type IngestionState } from '../workflows/ingestion.js';
import { leaveWorkerStopToCaller } from '../workflows/worker.js';

/** How long the banner waits for ingestion to come up before printing what it knows. */
const BANNER_WAIT_MS = 120_000;

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

// Stopping (Ctrl-C, SIGTERM, SIGHUP): the API stops taking requests, ingestion's worker drains
// (its running activities stop at their next step) and only then do the stores close, so no
// statement is cut off. Ctrl-C also reaches the child servers in the terminal's process group
// (PostgreSQL, Temporal): the worker's activities then fail fast instead of finishing, which is
// fine (a feed batch is re-run whole). A second signal exits at once.
let stopRequested = false;
let firstStopAt = 0;
let stopService: (() => Promise<void>) | null = null;
const EXIT_CODE = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
// One Ctrl-C can arrive twice (from the terminal and forwarded by npm): a second signal counts
// only after this long.
const SECOND_SIGNAL_AFTER_MS = 1000;
function onStopSignal(signal: keyof typeof EXIT_CODE): void {
  if (stopRequested) {
    if (Date.now() - firstStopAt < SECOND_SIGNAL_AFTER_MS) return;
    log.warn('second stop signal: exiting without waiting for the running work', { signal });
    process.exit(EXIT_CODE[signal]);
  }
  stopRequested = true;
  firstStopAt = Date.now();
  if (stopService) {
    log.info('shutting down', { signal });
    runStop(stopService);
  } else log.info('shutting down after the current start-up step (a second signal exits at once)', { signal });
}
function runStop(stop: () => Promise<void>): void {
  stop().catch((err: unknown) => {
    log.error('shutdown failed', errorFields(err));
    process.exit(1);
  });
}
const ingestionHere = config.ingest === 'on' || (config.ingest === 'auto' && !config.clickhouseUrl);
leaveStopSignalsToCaller();
if (ingestionHere) leaveWorkerStopToCaller();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onStopSignal);

let stores: Awaited<ReturnType<typeof openStores>>;
try {
  stores = await openStores(config, log);
} catch (err) {
  log.error('start-up failed: a store did not open', errorFields(err ?? new Error('no reason given')));
  process.exit(1);
}
/** A stop asked for during start-up takes effect between its steps: the stores close, nothing half-written. */
async function stopIfAsked(): Promise<void> {
  if (!stopRequested) return;
  await stores.close().catch(() => undefined);
  process.exit(0);
}
try {
  await stopIfAsked();
  await migratePostgres(stores.pg, log);
  await migrateClickHouse(stores.ch, log, config.clickhouseReader);
  await stopIfAsked();
  await loadDemoDataIfEmpty(config, stores, log);
  await stopIfAsked();
} catch (err) {
  // Ctrl-C reaches the embedded PostgreSQL too, so a start-up step it interrupted fails: a stop, not a failure.
  if (stopRequested) await stopIfAsked();
  log.error('start-up failed', errorFields(err));
  await stores.close().catch(() => undefined);
  process.exit(1);
}
const deps = await buildDeps(config, stores, log);
let server: Awaited<ReturnType<typeof startServer>>;
try {
  server = await startServer(deps, config.port, config.host, config.portalPort);
} catch (err) {
  const e = err as NodeJS.ErrnoException & { port?: number };
  if (e.code === 'EADDRINUSE')
    log.error('start-up failed: the port is in use (another Holo on this machine?); set PORT and HOLO_PORTAL_PORT', { port: e.port });
  else log.error('start-up failed: the API could not listen', errorFields(err));
  await stores.close().catch(() => undefined);
  process.exit(1);
}
// A served instance answers its first photo as fast as the rest: recognition is warmed (OpenCV,
// the index, the threads and their code) before the banner says the instance is up.
const recognitionWarm = warmRecognition(deps.recognitionIndex, deps.recognitionThreads).catch((err: unknown) =>
  log.warn('recognition warm-up failed; the first photo will warm it', errorFields(err)),
);
// With embedded chDB the worker must live here; with a ClickHouse server it runs as its own
// service (workflows/main.ts) unless HOLO_INGEST=on asks for it here too.
let ingestion: Ingestion | null = null;
if (ingestionHere) {
  // Supervised beside the API: its steps retry until they succeed, and /api/health tells how far
  // it got. The banner waits a while for it so that it can print where Temporal is.
  ingestion = superviseIngestion(config, stores, log);
  const supervised = ingestion;
  deps.ingestion = () => supervised.status();
}
stopService = async () => {
  await server.close();
  await ingestion?.stop().catch((err: unknown) => log.warn('ingestion did not stop cleanly', errorFields(err)));
  await stores.close();
  process.exit(0);
};
// A stop asked for while the server started: it ends the process here (stopService exits).
if (stopRequested) await stopService().catch((err: unknown) => (log.error('shutdown failed', errorFields(err)), process.exit(1)));
if (ingestion) await Promise.race([ingestion.ready, new Promise((resolve) => setTimeout(resolve, BANNER_WAIT_MS).unref())]);
await recognitionWarm;
const base = server.url;
process.stdout.write(
  [
    '',
    `Holo is up (data in ${config.dataDir}; postgres ${stores.pg.kind}, clickhouse ${stores.ch.kind}, redis ${stores.redis.kind}, payments ${stores.payments.kind})`,
    `  API            ${base}/api/v2/games`,
    `  A card         ${base}/api/v2/cards/1`,
    `  Card history   ${base}/api/v2/cards/1/history?region=global&days=365`,
    `  Stats          ${base}/api/v2/stats`,
    `  Health         ${base}/api/health`,
    `  OpenAPI        ${base}/openapi.json`,
    `  Dev portal     ${server.portalUrl}/  (sign up, enable access, create a key)`,
    ...(ingestion ? ingestionLines(ingestion.status(), ingestion.urls()) : ['  Ingestion      off (HOLO_INGEST=off)']),
    '',
  ].join('\n') + '\n',
);

/** The banner's ingestion lines, from one reading of its state (it may change while we print). */
function ingestionLines(state: IngestionState, urls: ReturnType<Ingestion['urls']>): string[] {
  const temporalUi = urls.temporalUi ?? (urls.temporalAddress ? `(external cluster ${urls.temporalAddress})` : '(starting)');
  return [
    `  Ingestion      ${state.state}${state.error ? ` (retrying: ${state.error})` : ''}; see ${base}/api/health`,
    `  Temporal UI    ${temporalUi}`,
    `  Upstreams      ${urls.feeds ? `local mirror ${urls.feeds} (e.g. ${urls.feeds}/v2/cards?page=1&pageSize=250)` : 'the real hosts'}; npm run ingest -- sources`,
    `  Operators      npm run ingest -- status | run | sources | schedules | pause | resume | backfill`,
    `  Admin API      ${base}/api/admin/ingest/runs  (Authorization: Bearer ${deps.admin.tokenFile ? `$(cat ${deps.admin.tokenFile})` : '$HOLO_ADMIN_TOKEN'})`,
  ];
}
