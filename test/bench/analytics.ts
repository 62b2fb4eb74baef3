// npm run bench:analytics: the analytics surface on the full demo (84 M price points), uncached,
// and the same movers and history queries on PostgreSQL over the same rows, ratio printed.
// Holo runs in this process on the embedded stores. The PostgreSQL copy (schema bench, unlogged)
// is made once with ClickHouse INTO OUTFILE + COPY, then reused while its row count matches.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../schemas/config.js';
import { createLogger } from '../../sql/runtime/log.js';
import { migrateClickHouse, migratePostgres } from '../../sql/stores/migrate.js';
import { openStores } from '../../sql/stores/index.js';
import { sqlFile } from '../../sql/sqlFile.js';
import { announcePricesLanded } from '../../sql/stores/priceChannels.js';
import { buildDeps, startServer } from '../../api/server.js';
import { loadDemoDataIfEmpty } from '../../ingest/demo/index.js';
import { finish, goal, invalid } from './harness.js';
import { precomputeCardAnalytics, progressText } from '../../ingest/analytics/precompute.js';
import { loadPricePoints } from '../../ingest/load/pricePoints.js';
import type { PricePointRow } from '../../ingest/pricePoint.js';
import { benchCardEndpoints, cardsNeeded } from './cardEndpoints.js';
import { chMoverRows, historyDifference, moversDifference, pgMoverRows, type HistoryRow } from './twins.js';

const config = loadConfig({ ...process.env, HOLO_ANONYMOUS_RATE_LIMIT: '1000000' });
if (config.databaseUrl)
  throw new Error(
    'bench:analytics loads its PostgreSQL copy with a server-side COPY: run it on the embedded PostgreSQL (unset DATABASE_URL)',
  );
const log = createLogger('warn');
console.log(
  `analytics benchmark: data in ${config.dataDir} (first run loads the full demo, then copies every price point into PostgreSQL: about 10 minutes)`,
);
const stores = await openStores(config, log);
await migratePostgres(stores.pg, log);
await migrateClickHouse(stores.ch, log);
await loadDemoDataIfEmpty(config, stores, log);
const pool = stores.pg.pool;
const ch = stores.ch.client;

const chCount = Number(
  (await (await ch.query({ query: 'SELECT count() AS n FROM holo.price_points', format: 'JSONEachRow' })).json<{ n: string }>())[0]!.n,
);
await pool.query(sqlFile('postgres/bench/schema.sql'));
const pgCount = Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM bench.price_points')).rows[0]!.n);
// The copy serves only the ClickHouse/PostgreSQL comparison after the per-card part.
const cardsOnly = process.env.HOLO_BENCH_ANALYTICS_PART === 'cards';
if (pgCount !== chCount && !cardsOnly) {
  console.log(`copying ${chCount} price points into PostgreSQL (bench.price_points)…`);
  const file = path.join(os.tmpdir(), `holo-bench-points-${process.pid}.tsv`);
  let t = performance.now();
  await ch.command({
    query: `SELECT card_id, variant_id, game, region, source, price_type, grading_company, grade, currency, amount, as_of, is_outlier
            FROM holo.price_points INTO OUTFILE '${file}' TRUNCATE FORMAT TabSeparated`,
  });
  fs.chmodSync(file, 0o644);
  console.log(`  exported in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  t = performance.now();
  await pool.query('DROP INDEX IF EXISTS bench.bench_pp_market, bench.bench_pp_card');
  await pool.query('TRUNCATE bench.price_points');
  await pool.query(`COPY bench.price_points FROM '${file}'`);
  fs.rmSync(file, { force: true });
  console.log(`  loaded in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  t = performance.now();
  await pool.query(sqlFile('postgres/bench/indexes.sql'));
  console.log(`  indexed in ${((performance.now() - t) / 1000).toFixed(0)} s`);
}

const deps = await buildDeps(
  config,
  stores,
  createLogger('info', {}, () => undefined),
);
const server = await startServer(deps, 0, '127.0.0.1');

type Stats = { n: number; p50: number; p99: number; mean: number };
const stats = (ms: number[]): Stats => {
  const s = [...ms].sort((a, b) => a - b);
  return {
    n: s.length,
    p50: s[Math.floor(s.length / 2)]!,
    p99: s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)]!,
    mean: s.reduce((a, b) => a + b, 0) / s.length,
  };
};
const timed = async (runs: number, fn: (i: number) => Promise<unknown>): Promise<Stats> => {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn(i);
    ms.push(performance.now() - t);
  }
  return stats(ms);
};
// Every HTTP request misses the cache, and the precomputed answers: a new prices epoch before each one.
const uncached = async (p: string) => {
  await announcePricesLanded(stores.redis, config.redisPrefix);
  const res = await fetch(server.url + p);
  if (res.status !== 200) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
};
const line = (name: string, s: Stats) =>
  console.log(`  ${name.padEnd(52)} p50 ${s.p50.toFixed(1).padStart(7)} ms   p99 ${s.p99.toFixed(1).padStart(7)} ms   (${s.n} runs)`);

// Let chDB finish merging what the demo load wrote.
for (let i = 0; i < 120; i++) {
  const [m] = await deps.analytics.rows<{ n: string }>('SELECT toString(count()) AS n FROM system.merges');
  if (Number(m?.n ?? 0) === 0) break;
  await new Promise((r) => setTimeout(r, 1000));
}

// The precompute a load runs: every card (a new day), then again with nothing changed (its fixed cost).
{
  const targets = { ch, pool, redis: stores.redis, redisPrefix: config.redisPrefix };
  if (process.env.HOLO_BENCH_PRECOMPUTE !== 'changed') {
    const full = await precomputeCardAnalytics(targets, {
      changedSince: new Date(0),
      progress: (p) => console.log(`  precompute: ${progressText(p)}`),
    });
    console.log(
      `precompute of every card (a full day): ${full.cards} cards in ${full.seconds.toFixed(1)} s (ClickHouse ${full.clickhouseSeconds.toFixed(1)} s, PostgreSQL writes ${full.postgresSeconds.toFixed(1)} s)`,
    );
  }
  const none = await precomputeCardAnalytics(targets, { changedSince: new Date() });
  console.log(`precompute with no card changed: ${none.seconds.toFixed(2)} s`);
  // One feed: the newest day of the largest source and game loaded again through the production
  // write path (the same rows under a new batch, so every answer stays as it was), then the
  // precompute of the cards it touched, as the feed's workflow runs it.
  const rs = await ch.query({
    query: `WITH (SELECT max(as_of) FROM holo.price_points) AS newest,
              (SELECT (source, game) FROM holo.price_points WHERE as_of = newest GROUP BY source, game ORDER BY count() DESC LIMIT 1) AS feed
            SELECT card_id, variant_id, game, region, source, price_type, grading_company, grade, currency, toString(amount) AS amount,
                   as_of, observation_id, is_outlier
            FROM holo.price_points FINAL WHERE as_of = newest AND (source, game) = feed`,
    format: 'JSONEachRow',
  });
  const feedRows = (await rs.json<PricePointRow>()).map((r) => ({ ...r, card_id: Number(r.card_id), variant_id: Number(r.variant_id) }));
  const landing = new Date();
  await loadPricePoints(targets, feedRows, { id: `bench-analytics-feed-${Date.now()}`, ingestedAt: landing });
  const feed = await precomputeCardAnalytics(targets, { changedSince: landing });
  const split = (r: typeof feed) => `ClickHouse ${r.clickhouseSeconds.toFixed(1)} s, PostgreSQL writes ${r.postgresSeconds.toFixed(1)} s`;
  console.log(
    `precompute after one feed (${feedRows[0]?.source ?? '-'} ${feedRows[0]?.game ?? '-'}, ${feedRows.length} rows): ${feed.cards} cards in ${feed.seconds.toFixed(1)} s (${split(feed)})`,
  );
}
// Per-card endpoints first: distinct priced cards, each used once in the run.
const distinctCards = (
  await pool.query<{ id: number }>(`SELECT card_id AS id FROM card_best_prices ORDER BY md5(card_id::text || 'i35') LIMIT $1`, [
    cardsNeeded(),
  ])
).rows.map((r) => r.id);
console.log('');
await benchCardEndpoints(server.url, config.dataDir, distinctCards, () =>
  precomputeCardAnalytics({ ch, pool, redis: stores.redis, redisPrefix: config.redisPrefix }, { changedSince: new Date() }),
);
if (cardsOnly) {
  await server.close();
  await stores.close();
  finish();
}

const cards = (
  await pool.query<{ id: number; name: string }>(
    `SELECT c.id, c.name FROM card_best_prices b JOIN cards c ON c.id = b.card_id ORDER BY md5(c.id::text) LIMIT 200`,
  )
).rows;
// A new prices epoch with no precompute published under it is the window right after prices land:
// the filed answers serve only their own epoch, so these are ClickHouse's answers (the per-card
// table above is the steady state: answers precomputed for the epoch served).
console.log(
  `\n${chCount} price points; HTTP requests uncached and answered by ClickHouse (a new prices epoch before each, nothing precomputed under it: the window right after prices land), one at a time\n`,
);
console.log('API, end to end');
const movers7 = await timed(30, () => uncached('/api/market/movers?period=7d&limit=20'));
line('market movers, all games, 7 days', movers7);
line('market movers, all games, 30 days', await timed(15, () => uncached('/api/market/movers?period=30d&limit=20')));
line('market movers, pokemon, 90 days', await timed(10, () => uncached('/api/market/movers?tcg=pokemon&period=90d&limit=20')));
const aggregates = await timed(100, (i) => uncached(`/api/cards/${cards[i % cards.length]!.id}/price-aggregates`));
line('price-aggregates, distinct cards', aggregates);
const words = cards.map((c) => c.name.split(/\s+/)[0]!.slice(0, 6));
const search = await timed(100, (i) => uncached(`/api/search?q=${encodeURIComponent(words[i % words.length]!)}&limit=50`));
line('search (prefixes of card names), 50 results', search);

console.log('\nthe same query on each store (ClickHouse: the production SQL; PostgreSQL: its twin in sql/postgres/bench)');
// The twins must give the same answers before their speeds mean anything.
const chMoversAnswer = async (days: number) =>
  chMoverRows(
    (
      await (
        await ch.query({
          query: sqlFile('clickhouse/queries/market/market_movers.sql'),
          query_params: { game: '', days, limit: 20 },
          format: 'JSONEachRow',
        })
      ).json<Parameters<typeof chMoverRows>[0] & object>()
    )[0],
  );
const pgMoversAnswer = async (days: number) =>
  pgMoverRows((await pool.query<Parameters<typeof pgMoverRows>[0][number]>(sqlFile('postgres/bench/market_movers.sql'), [days, 20])).rows);
for (const days of [7, 30]) {
  const difference = moversDifference(await chMoversAnswer(days), await pgMoversAnswer(days));
  if (difference) invalid(`movers ${days} days: the PostgreSQL twin does not answer as ClickHouse does: ${difference}`);
}
const chMovers = await timed(15, () =>
  ch
    .query({
      query: sqlFile('clickhouse/queries/market/market_movers.sql'),
      query_params: { game: '', days: 7, limit: 20 },
      format: 'JSONEachRow',
    })
    .then((r) => r.json()),
);
const pgMovers = await timed(5, () => pool.query(sqlFile('postgres/bench/market_movers.sql'), [7, 20]));
line('movers 7 days, ClickHouse', chMovers);
line('movers 7 days, PostgreSQL', pgMovers);
const chMovers30 = await timed(10, () =>
  ch
    .query({
      query: sqlFile('clickhouse/queries/market/market_movers.sql'),
      query_params: { game: '', days: 30, limit: 20 },
      format: 'JSONEachRow',
    })
    .then((r) => r.json()),
);
const pgMovers30 = await timed(3, () => pool.query(sqlFile('postgres/bench/market_movers.sql'), [30, 20]));
line('movers 30 days, ClickHouse', chMovers30);
line('movers 30 days, PostgreSQL', pgMovers30);
const variants = (
  await pool.query<{ card_id: number; variant_id: number }>(
    `SELECT card_id, variant_id FROM card_best_prices ORDER BY md5(card_id::text) LIMIT 100`,
  )
).rows;
const since = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
if (variants.length === 0) invalid('history: no priced variants to read');
let historyRows = 0;
for (const v of variants) {
  const chAnswer = await (
    await ch.query({
      query: sqlFile('clickhouse/queries/v2History/history_points.sql'),
      query_params: { card_id: v.card_id, variant_id: v.variant_id, region: 'us', since },
      format: 'JSONEachRow',
    })
  ).json<HistoryRow>();
  const pgAnswer = (await pool.query<HistoryRow>(sqlFile('postgres/bench/history_points.sql'), [v.card_id, v.variant_id, 'us', since]))
    .rows;
  historyRows += chAnswer.length;
  const difference = historyDifference(chAnswer, pgAnswer);
  if (difference) {
    invalid(`history of variant ${v.variant_id}: the PostgreSQL twin does not answer as ClickHouse does: ${difference}`);
    break;
  }
}
if (variants.length > 0 && historyRows === 0) invalid('history: every sampled variant has an empty US history, nothing was compared');
const chHistory = await timed(variants.length, (i) =>
  ch
    .query({
      query: sqlFile('clickhouse/queries/v2History/history_points.sql'),
      query_params: { card_id: variants[i]!.card_id, variant_id: variants[i]!.variant_id, region: 'us', since },
      format: 'JSONEachRow',
    })
    .then((r) => r.json()),
);
const pgHistory = await timed(variants.length, (i) =>
  pool.query(sqlFile('postgres/bench/history_points.sql'), [variants[i]!.card_id, variants[i]!.variant_id, 'us', since]),
);
line('365-day history of a variant, ClickHouse', chHistory);
line('365-day history of a variant, PostgreSQL', pgHistory);

const verdict = goal;
console.log('\nratios and goals');
console.log(`  movers p99 (API, 7 days, whole catalogue)    ${movers7.p99.toFixed(0)} ms   goal <= 200 ms: ${verdict(movers7.p99 <= 200)}`);
console.log(
  `  movers 7 days, PostgreSQL / ClickHouse (p50) ${(pgMovers.p50 / chMovers.p50).toFixed(1)}x   goal >= 10x: ${verdict(pgMovers.p50 / chMovers.p50 >= 10)}`,
);
console.log(
  `  movers 30 days, PostgreSQL / ClickHouse      ${(pgMovers30.p50 / chMovers30.p50).toFixed(1)}x   goal >= 10x: ${verdict(pgMovers30.p50 / chMovers30.p50 >= 10)}`,
);
console.log(
  `  history, PostgreSQL / ClickHouse (p50)       ${(pgHistory.p50 / chHistory.p50).toFixed(1)}x   goal >= 10x: ${verdict(pgHistory.p50 / chHistory.p50 >= 10)}`,
);
console.log(`  price-aggregates p99 ${aggregates.p99.toFixed(0)} ms, search p99 ${search.p99.toFixed(0)} ms`);

await server.close();
await stores.close();
finish();
