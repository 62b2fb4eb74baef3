// npm run bench:collector: the collector goals (issue 16), on the embedded stores with the small
// demo's real prices and history, for one collection of 10,000 entries:
//  1. GET /collection/summary uncached (the user's collection version bumped before every call,
//     as a change does): p99 at most 50 ms. Measured twice: right after new prices land (the
//     variants' history read from ClickHouse too) and after that (it is market data kept per
//     prices epoch; only the collector's own summary is recomputed).
//     GET /collection/analytics?days=365 the same way: p99 at most 50 ms.
//  2. POST /collection/import of a 10,000-row CSV: at most 2 s.
//  3. GET /collection/export of the 10,000 entries: at most 1 s.
import { accountWithKey } from '../support/accounts.js';
import { startStack } from '../support/stack.js';
import { collectionVersionKey } from '../../api/collection/entries.js';
import { variantName } from '../../api/legacy/variants.js';
import { announcePricesLanded } from '../../sql/stores/priceChannels.js';

const ENTRIES = 10_000;
const GOALS = { summaryP99Ms: 50, analyticsP99Ms: 50, importMs: 2000, exportMs: 1000 };
const SUMMARY_CALLS = 200;

const verdict = (ms: number, goal: number) =>
  `goal <= ${goal} ms: ${ms <= goal ? 'meets goal' : 'MISSES goal'}, ratio ${(ms / goal).toFixed(2)}`;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const stack = await startStack({ demo: 'small', env: { HOLO_LOG_LEVEL: 'warn' } });
try {
  const collector = await accountWithKey(stack, 'benchcollector', 'enterprise');
  // Every variant of the demo in each condition, as many as the collection needs.
  const { rows: variants } = await stack.stores.pg.pool.query<{ card_id: number; finish: string; print_run: string }>(
    `SELECT p.card_id, v.finish, p.print_run FROM printings p JOIN variants v ON v.printing_id = p.id ORDER BY p.card_id, v.id`,
  );
  const lines = ['card_id,quantity,condition,price_paid,variant'];
  for (const condition of ['NM', 'LP', 'MP', 'HP', 'DMG']) {
    for (const v of variants) {
      if (lines.length > ENTRIES) break;
      lines.push(`${v.card_id},${1 + (lines.length % 4)},${condition},${(lines.length % 50) + 0.99},${variantName(v.finish, v.print_run)}`);
    }
  }
  if (lines.length - 1 < ENTRIES) throw new Error(`the small demo has too few variants for ${ENTRIES} entries`);
  const csv = lines.join('\n');

  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'collection.csv');
  const importStarted = performance.now();
  const imported = await fetch(`${stack.url}/collection/import`, { method: 'POST', headers: collector.headers, body: form });
  const importMs = performance.now() - importStarted;
  const importBody = (await imported.json()) as { entries?: number };
  if (imported.status !== 200 || importBody.entries !== ENTRIES)
    throw new Error(`import answered ${imported.status} ${JSON.stringify(importBody)}`);
  console.log(`collector benchmark: ${ENTRIES} entries (${variants.length} variants × conditions of the small demo)`);
  console.log(
    `  CSV import of ${ENTRIES} rows (${(csv.length / 1024).toFixed(0)} KiB): ${importMs.toFixed(0)} ms (${verdict(importMs, GOALS.importMs)})`,
  );

  const exports: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const res = await fetch(`${stack.url}/collection/export`, { headers: collector.headers });
    const text = await res.text();
    exports.push(performance.now() - started);
    if (text.split('\n').filter(Boolean).length !== ENTRIES + 1) throw new Error('the export lacks entries');
  }
  const exportMs = Math.max(...exports);
  console.log(`  CSV export of ${ENTRIES} entries, 5 runs: slowest ${exportMs.toFixed(0)} ms (${verdict(exportMs, GOALS.exportMs)})`);

  const versionKey = collectionVersionKey(stack.config.redisPrefix, collector.user.id);
  const uncached = async (path: string, opts: { newPrices: boolean }) => {
    await stack.stores.redis.incr(versionKey);
    if (opts.newPrices) {
      // What ingestion does when prices land: a new epoch, announced.
      await announcePricesLanded(stack.stores.redis, stack.config.redisPrefix, `bench-${performance.now()}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    const started = performance.now();
    const res = await fetch(`${stack.url}${path}`, { headers: collector.headers });
    const body = (await res.json()) as { card_count?: number; by_set?: unknown[] };
    if (res.status !== 200 || !(body.card_count ?? body.by_set?.length)) throw new Error(`${path} answered ${res.status}`);
    return performance.now() - started;
  };
  for (const [what, path, goal] of [
    ['summary', '/collection/summary', GOALS.summaryP99Ms],
    ['analytics (365 days)', '/collection/analytics?days=365', GOALS.analyticsP99Ms],
  ] as const) {
    for (const [label, newPrices, calls] of [
      ['right after new prices land', true, 50],
      ['later (variant history kept for the epoch)', false, SUMMARY_CALLS],
    ] as const) {
      for (let i = 0; i < 5; i++) await uncached(path, { newPrices }); // warm-up
      const ms: number[] = [];
      for (let i = 0; i < calls; i++) ms.push(await uncached(path, { newPrices }));
      ms.sort((a, b) => a - b);
      const p99 = percentile(ms, 99);
      console.log(
        `  ${what} uncached, ${label}, ${calls} calls one after another: p50 ${percentile(ms, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (${verdict(p99, goal)})`,
      );
    }
  }
} finally {
  await stack.close();
}
process.exit(0);
