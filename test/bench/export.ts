// npm run bench:export: the data-team goals (issue 18) on the embedded stores with the small demo's
// real catalogue and a year of history:
//  1. NDJSON export: the whole price history streamed as JSONEachRow through /clickhouse (the
//     HTTP interface data teams use), measured at the client: at least 100 MB/s.
//  2. Parquet export: every month of price history written as Parquet by the bulk exporter's own
//     statement on its export session: at least 1 million rows/s. The whole bulk export (three
//     formats, checksums, records) is timed beside it.
//  3. pokemontcg.io compatibility: p99 of distinct q queries (none answered from the cache): at
//     most 50 ms.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { accountWithKey } from '../support/accounts.js';
import { startStack } from '../support/stack.js';
import { bulkPriceMonths, bulkSelect } from '../../sql/bulk.js';
import { planBulkExports, writeBulkDatasets } from '../../ingest/export/bulkExport.js';

const GOALS = { ndjsonMBps: 100, parquetRowsPerS: 1_000_000, compatP99Ms: 50 };
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const atLeast = (value: number, goal: number, unit: string) =>
  `goal >= ${goal.toLocaleString('en')} ${unit}: ${value >= goal ? 'meets goal' : 'MISSES goal'}, ratio ${(value / goal).toFixed(2)}`;
const atMost = (value: number, goal: number) =>
  `goal <= ${goal} ms: ${value <= goal ? 'meets goal' : 'MISSES goal'}, ratio ${(value / goal).toFixed(2)}`;

const stack = await startStack({ demo: 'small', env: { HOLO_LOG_LEVEL: 'warn' } });
try {
  const team = await accountWithKey(stack, 'benchdatateam', 'enterprise');
  const auth = { Authorization: `Basic ${Buffer.from(`holo:${team.key}`).toString('base64')}` };

  // 1. NDJSON through the HTTP interface, read to the end by the client.
  const ndjsonRuns: { bytes: number; ms: number; rows: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const res = await fetch(`${stack.url}/clickhouse/?default_format=JSONEachRow`, {
      method: 'POST',
      headers: auth,
      body: 'SELECT * FROM holo.price_points',
    });
    if (res.status !== 200 || !res.body) throw new Error(`/clickhouse answered ${res.status}: ${await res.text()}`);
    let bytes = 0;
    let rows = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const b of chunk) if (b === 10) rows++;
    }
    ndjsonRuns.push({ bytes, rows, ms: performance.now() - started });
  }
  const ndjson = ndjsonRuns.sort((a, b) => a.ms - b.ms)[1]!; // the median of three
  const ndjsonMBps = ndjson.bytes / 1e6 / (ndjson.ms / 1000);
  console.log(`export benchmark: small demo, ${ndjson.rows.toLocaleString('en')} price points`);
  console.log(
    `  NDJSON through /clickhouse: ${(ndjson.bytes / 1e6).toFixed(0)} MB in ${ndjson.ms.toFixed(0)} ms = ${ndjsonMBps.toFixed(0)} MB/s (${atLeast(ndjsonMBps, GOALS.ndjsonMBps, 'MB/s')})`,
  );

  // 2. Parquet: the exporter's statement, a game's months in one partitioned pass, on its export session.
  const sessions = stack.stores.ch.sessions!.exports;
  const months = await bulkPriceMonths(stack.stores.ch.client, {});
  const games = [...new Set(months.map((m) => m.game))];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'holo-bench-export-'));
  const parquetStarted = performance.now();
  for (const game of games) {
    const list = months.filter((m) => m.game === game).map((m) => `'${m.month}'`);
    await sessions.use((s) =>
      s.queryBindAsync(
        `INSERT INTO FUNCTION file('${scratch}/${game}-{_partition_id}.parquet', 'Parquet') PARTITION BY toYYYYMM(day) ${bulkSelect('bulk_prices_months')} SETTINGS engine_file_truncate_on_insert = 1`,
        { game, months: `[${list.join(',')}]` },
        { format: 'TSV' },
      ),
    );
  }
  const parquetMs = performance.now() - parquetStarted;
  const counted = await sessions.use((s) => s.queryAsync(`SELECT count() FROM file('${scratch}/*.parquet', 'Parquet')`, { format: 'TSV' }));
  const parquetRows = Number(counted.text().trim());
  const rowsPerS = parquetRows / (parquetMs / 1000);
  console.log(
    `  Parquet, ${months.length} game-months of price history (${games.length} games, one pass each): ${parquetRows.toLocaleString('en')} rows in ${parquetMs.toFixed(0)} ms = ${Math.round(rowsPerS).toLocaleString('en')} rows/s (${atLeast(rowsPerS, GOALS.parquetRowsPerS, 'rows/s')})`,
  );
  fs.rmSync(scratch, { recursive: true, force: true });

  const target = { dir: path.join(stack.config.dataDir, 'exports'), pool: stack.stores.pg.pool, ch: stack.stores.ch.client, sessions };
  const plan = await planBulkExports(target);
  const bulkStarted = performance.now();
  let bulkBytes = 0;
  let bulkRows = 0;
  for (const group of plan) {
    for (const written of await writeBulkDatasets(target, group)) {
      bulkBytes += written.bytes;
      bulkRows += written.rows;
    }
  }
  const bulkMs = performance.now() - bulkStarted;
  console.log(
    `  whole bulk export (${plan.flat().length} data sets × gzip NDJSON, gzip CSV, Parquet; checksums; records): ${bulkRows.toLocaleString('en')} rows, ${(bulkBytes / 1e6).toFixed(1)} MB of files in ${(bulkMs / 1000).toFixed(1)} s`,
  );

  // 3. Distinct pokemontcg.io queries: names, subtypes, ranges, nested and price fields.
  const { rows: names } = await stack.stores.pg.pool.query<{ name: string }>(
    `SELECT DISTINCT split_part(name, ' ', 1) AS name FROM cards WHERE external_key LIKE 'pokemontcg:%' AND name ~ '^[A-Za-z]{3,}' ORDER BY 1 LIMIT 150`,
  );
  const queries = names.flatMap(({ name }, i) => [
    `name:${name.toLowerCase()}`,
    `name:${name.slice(0, 3).toLowerCase()}* hp:[${30 + (i % 10) * 10} TO *] -subtypes:basic`,
    `(types:fire OR types:water) nationalPokedexNumbers:[${i + 1} TO ${i + 40}] set.id:sv3pt5`,
    `tcgplayer.prices.holofoil.market:[${(i % 20) + 1} TO *] rarity:"rare holo" OR name:"${name}"`,
  ]);
  const times: number[] = [];
  for (const [i, q] of queries.entries()) {
    const started = performance.now();
    const res = await fetch(
      `${stack.url}/compat/pokemontcg/v2/cards?q=${encodeURIComponent(q)}&pageSize=${20 + (i % 30)}&orderBy=-set.releaseDate,number`,
    );
    await res.arrayBuffer();
    times.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`${q}: ${res.status}`);
  }
  times.sort((a, b) => a - b);
  console.log(
    `  pokemontcg.io q, ${queries.length} distinct queries over ${names.length} names: p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms (${atMost(percentile(times, 99), GOALS.compatP99Ms)})`,
  );
} finally {
  await stack.close();
}
