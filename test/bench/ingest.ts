// npm run bench:ingest: ingestion throughput through one worker, against a raw bulk INSERT of the
// same rows (the ceiling), in one run.
//
// It runs on a throwaway data directory (HOLO_BENCH_INGEST_DIR, default .holo-bench-ingest): the
// whole real catalogue, 30 days of demo history, then a few warm-up days of feeds so the outlier
// baseline has history to read, then the measured day: a full scrapeAll over every feed, through
// Temporal's dev server and the in-process worker, exactly as `npm start` ingests.
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../../schemas/config.js';
import { createLogger } from '../../sql/runtime/log.js';
import { migrateClickHouse, migratePostgres } from '../../sql/migrate.js';
import { insertTabSeparated } from '../../sql/stores/clickhouse.js';
import { openStores } from '../../sql/stores/index.js';
import { loadDemoDataIfEmpty } from '../../ingest/demo/index.js';
import { startFeedServer } from '../../ingest/demoMarket/feedServer.js';
import { PRICE_POINT_COLUMNS } from '../../ingest/load/pricePoints.js';
import { feedPairs } from '../../ingest/sources/registry.js';
import { activityDeps } from '../../workflows/activities.js';
import { TASK_QUEUE } from '../../workflows/shared.js';
import { startTemporal } from '../../workflows/temporalServer.js';
import { createIngestWorker } from '../../workflows/worker.js';
import type { ScrapeProgress } from '../../workflows/shared.js';

const WARMUP_DAYS = Number(process.env.HOLO_BENCH_WARMUP_DAYS ?? 5);
const GOAL_ROWS_PER_S = 200_000;
const dataDir = path.resolve(process.env.HOLO_BENCH_INGEST_DIR ?? '.holo-bench-ingest');
const config = loadConfig({
  ...process.env,
  HOLO_DATA_DIR: dataDir,
  HOLO_DEMO: 'full',
  HOLO_DEMO_HISTORY_DAYS: '30',
  HOLO_LOG_LEVEL: 'warn',
});
const log = createLogger('warn');
console.log(`ingestion benchmark: data in ${dataDir} (first run imports the catalogue and 30 days of history)`);
const stores = await openStores(config, log);
await migratePostgres(stores.pg, log);
await migrateClickHouse(stores.ch, log);
await loadDemoDataIfEmpty(config, stores, log);
const feeds = await startFeedServer(stores.pg.pool);
const temporal = await startTemporal(config, log);
const { worker, connection } = await createIngestWorker(temporal.address, config.temporalNamespace, activityDeps(config, stores));
const running = worker.run();
const client = new Client({ connection: await Connection.connect({ address: temporal.address }), namespace: config.temporalNamespace });

// Days after the newest one already ingested here, so every run loads fresh rows.
const [{ last }] = (
  await stores.pg.pool.query<{ last: string }>(`SELECT coalesce(max(as_of), current_date)::text AS last FROM variant_prices_latest`)
).rows as [{ last: string }];
const dayAfter = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

async function scrape(day: string): Promise<{ progress: ScrapeProgress; seconds: number }> {
  const started = performance.now();
  const progress = await client.workflow.execute('scrapeAll', {
    args: [{ asOf: day, feedsUrl: feeds.url, pairs: feedPairs(), concurrency: 2 }],
    taskQueue: TASK_QUEUE,
    workflowId: `bench-scrape/${day}/${Date.now()}`,
  });
  return { progress: progress as ScrapeProgress, seconds: (performance.now() - started) / 1000 };
}

for (let i = 1; i <= WARMUP_DAYS; i++) {
  const { progress, seconds } = await scrape(dayAfter(last, i));
  console.log(`warm-up day ${i}/${WARMUP_DAYS}: ${progress.results.reduce((n, r) => n + r.loaded, 0)} rows in ${seconds.toFixed(1)} s`);
}
const day = dayAfter(last, WARMUP_DAYS + 1);
const { progress, seconds } = await scrape(day);
if (progress.failed) throw new Error(`feeds failed: ${JSON.stringify(progress.failures)}`);
const loaded = progress.results.reduce((n, r) => n + r.loaded, 0);

console.log(`\nmeasured day ${day}: full scrapeAll over ${progress.results.length} feeds, 2 at a time, one worker`);
const steps = ['fetch', 'parse', 'map', 'outliers', 'insert', 'latest', 'publish'] as const;
console.log(`  ${'feed'.padEnd(26)} ${'rows'.padStart(8)} ${steps.map((s) => s.padStart(8)).join(' ')}   (ms)`);
for (const r of progress.results)
  console.log(
    `  ${`${r.source}/${r.game}`.padEnd(26)} ${String(r.loaded).padStart(8)} ${steps.map((s) => String(r.timings[s]).padStart(8)).join(' ')}`,
  );
const stepTotal = (s: (typeof steps)[number]) => progress.results.reduce((n, r) => n + r.timings[s], 0);
const workMs = steps.filter((s) => s !== 'fetch').reduce((n, s) => n + stepTotal(s), 0);

// The ceiling: the same rows as one TabSeparated payload, bulk-inserted into a table of the same
// structure: no fetch, parse, mapping, outlier check, latest prices or publishing.
await stores.ch.client.command({ query: 'DROP TABLE IF EXISTS holo.bench_price_points' });
await stores.ch.client.command({ query: 'CREATE TABLE holo.bench_price_points AS holo.price_points' });
const payload = Buffer.from(
  await (
    await stores.ch.client.query({
      query: `SELECT ${PRICE_POINT_COLUMNS.join(', ')} FROM holo.price_points WHERE as_of = {day:Date}`,
      query_params: { day },
      format: 'TabSeparated',
    })
  ).text(),
);
const ceilingStart = performance.now();
await insertTabSeparated(stores.ch.client, { table: 'holo.bench_price_points', columns: PRICE_POINT_COLUMNS, body: payload });
const ceilingSeconds = (performance.now() - ceilingStart) / 1000;
const ceilingRows = Number(payload.toString('latin1').split('\n').length - 1);
await stores.ch.client.command({ query: 'DROP TABLE holo.bench_price_points' });

const endToEnd = loaded / seconds;
const ceiling = ceilingRows / ceilingSeconds;
console.log('\nthroughput');
console.log(`  full scrapeAll wall time                 ${seconds.toFixed(1)} s for ${loaded} rows`);
console.log(
  `  end to end through one worker            ${endToEnd.toFixed(0)} rows/s  goal >= ${GOAL_ROWS_PER_S}: ${endToEnd >= GOAL_ROWS_PER_S ? 'meets goal' : 'MISSES goal'}`,
);
console.log(
  `  parse..publish, summed over feeds        ${(loaded / (workMs / 1000)).toFixed(0)} rows/s of step time (fetch excluded; feeds overlap 2 at a time)`,
);
console.log(
  `  ceiling: raw bulk INSERT of the same rows ${ceiling.toFixed(0)} rows/s (${ceilingRows} rows in ${ceilingSeconds.toFixed(2)} s)`,
);
console.log(`  end to end / ceiling                     ${(endToEnd / ceiling).toFixed(3)}`);
console.log(`  step shares: ${steps.map((s) => `${s} ${((100 * stepTotal(s)) / (workMs + stepTotal('fetch'))).toFixed(0)}%`).join(', ')}`);

worker.shutdown();
await running;
await connection.close();
await client.connection.close();
await temporal.stop();
await feeds.close();
await stores.close();
process.exit(0);
