// bench:analytics, per-card part (issue 35): every per-card analytics endpoint on distinct cards
// (so every request misses the cache, as an API consumer's first call on a card does) at 1 and at 8
// in flight, against the same run's cached read of the same endpoint at 8 in flight; the market
// movers and overview uncached (a precompute finding nothing changed publishes a new prices epoch
// before each: the first read after a load's precompute) against their cached read.
import os from 'node:os';
import path from 'node:path';
import { checkLoad, goal, loadOnly, type LoadResult } from './harness.js';
import { breakdownText, cpuPerRequest } from './cpuBreakdown.js';

export const CARD_ENDPOINTS: { name: string; path: (id: number) => string }[] = [
  { name: 'price-aggregates', path: (id) => `/api/cards/${id}/price-aggregates` },
  { name: 'stash-score', path: (id) => `/api/cards/${id}/stash-score` },
  { name: 'price-history?days=365', path: (id) => `/api/cards/${id}/price-history?days=365` },
  { name: 'predict', path: (id) => `/api/cards/${id}/predict` },
  { name: 'price-history-snapshots', path: (id) => `/api/cards/${id}/price-history-snapshots` },
  { name: 'price-intelligence summary 30d', path: (id) => `/api/price-intelligence/card/${id}/summary?period=30d` },
  { name: 'v2 history global 365', path: (id) => `/api/v2/cards/${id}/history?region=global&days=365` },
];

const P99_GOAL_MS = 20;
const RATIO_GOAL = 0.5;
// HOLO_BENCH_CARD_REQUESTS=30,48 measures fewer (a busy machine); HOLO_BENCH_CARD_ENDPOINTS=price-aggregates,predict,market movers some.
const [SEQUENTIAL, PARALLEL] = (process.env.HOLO_BENCH_CARD_REQUESTS ?? '200,400').split(',').map(Number) as [number, number];
const ONLY = process.env.HOLO_BENCH_CARD_ENDPOINTS?.split(',');
// HOLO_BENCH_PROFILE=1: the uncached runs at 8 in flight under V8's CPU profiler, their CPU split by part.
const PROFILE = process.env.HOLO_BENCH_PROFILE === '1';
/**
 * Distinct cards each endpoint reads, uncounted, before its measured runs: the first requests of a
 * route compile its code and open its statements on the pooled connections (a first request took
 * 40-50 ms, then 1-2), which a serving instance has done long before a client's first call.
 */
const WARM_UP = 10;

/**
 * Throughput over the run's own wall time, first request to last answer (autocannon's figures count
 * its one-second ticks: a run of 160 answers in 0.2 s reads as 160 req/s).
 */
async function run(
  url: string,
  paths: string[],
  connections: number,
  opts: { amount?: number; duration: number },
): Promise<LoadResult & { wallRps: number }> {
  const r = await loadOnly(url, paths, connections, opts);
  return { ...r, wallRps: r.requests / r.wallSeconds };
}

/** Distinct priced cards the per-card part uses (each once across the whole run). */
export const cardsNeeded = (): number =>
  CARD_ENDPOINTS.filter((e) => !ONLY || ONLY.includes(e.name)).length * (WARM_UP + SEQUENTIAL + PARALLEL + 1);

/**
 * Cards are used once each across the whole run: `cards` must hold cardsNeeded() ids.
 * `published`: runs a precompute that finds nothing changed, as one does after a load: it publishes
 * a new prices epoch (every cached answer ends) under which the precomputed answers stand.
 */
export async function benchCardEndpoints(
  url: string,
  dataDir: string,
  cards: number[],
  published: () => Promise<unknown>,
): Promise<boolean> {
  const per = WARM_UP + SEQUENTIAL + PARALLEL + 1;
  const endpoints = CARD_ENDPOINTS.filter((e) => !ONLY || ONLY.includes(e.name));
  if (cards.length < cardsNeeded()) throw new Error(`need ${cardsNeeded()} priced cards, have ${cards.length}`);
  let met = true;
  const cpuLines: string[] = [];
  console.log(
    `per-card analytics, distinct cards (uncached), after ${WARM_UP} uncounted: ${SEQUENTIAL} one at a time, ${PARALLEL} with 8 in flight; cached: one card's answer, 8 in flight, 3 s`,
  );
  console.log(
    `  ${'endpoint'.padEnd(32)} ${'uncached@1 p50/p99'.padStart(20)} ${'uncached@8 p50/p99 req/s'.padStart(28)} ${'cached@8 req/s'.padStart(15)}  ratio`,
  );
  for (const [k, e] of endpoints.entries()) {
    const [warmUp, own] = [cards.slice(k * per, k * per + WARM_UP), cards.slice(k * per + WARM_UP, (k + 1) * per)];
    checkLoad(`${e.name} warm-up`, await run(url, warmUp.map(e.path), 1, { amount: WARM_UP, duration: 600 }));
    const one = checkLoad(
      `${e.name} uncached@1`,
      await run(url, own.slice(0, SEQUENTIAL).map(e.path), 1, { amount: SEQUENTIAL, duration: 600 }),
    );
    const eight = checkLoad(
      `${e.name} uncached@8`,
      await cpuPerRequest(
        dataDir,
        PROFILE ? path.join(os.tmpdir(), `holo-bench-${e.name.replace(/\W+/g, '-')}.cpuprofile`) : undefined,
        () => run(url, own.slice(SEQUENTIAL, SEQUENTIAL + PARALLEL).map(e.path), 8, { amount: PARALLEL, duration: 600 }),
      ),
    );
    const hot = [e.path(own.at(-1)!)];
    await fetch(url + hot[0]);
    const cached = checkLoad(`${e.name} cached@8`, await cpuPerRequest(dataDir, undefined, () => run(url, hot, 8, { duration: 3 })));
    const ratio = eight.wallRps / cached.wallRps;
    const p99 = Math.max(one.p99, eight.p99);
    const ok = p99 <= P99_GOAL_MS && ratio >= RATIO_GOAL;
    met &&= ok;
    console.log(
      `  ${e.name.padEnd(32)} ${`${one.p50} / ${one.p99} ms`.padStart(20)} ${`${eight.p50} / ${eight.p99} ms ${eight.wallRps.toFixed(1)}`.padStart(28)} ${cached.wallRps.toFixed(0).padStart(15)}  ${ratio.toFixed(3)}  p99 <= ${P99_GOAL_MS} ms and ratio >= ${RATIO_GOAL}: ${goal(ok)}`,
    );
    cpuLines.push(
      `  ${e.name.padEnd(32)} uncached: ${breakdownText(eight.cpu)}\n  ${''.padEnd(32)} cached:   ${breakdownText(cached.cpu)}`,
    );
  }
  if (cpuLines.length)
    console.log(
      `\n  server CPU per request at 8 in flight (this process, the API; the embedded PostgreSQL)${PROFILE ? ', the uncached runs profiled' : ''}:\n${cpuLines.join('\n')}\n`,
    );
  for (const [name, path] of [
    ['market movers, all games, 7 days', '/api/market/movers?period=7d&limit=20'],
    ['market overview, 7 days', '/api/market/overview?period=7d'],
  ] as const) {
    if (ONLY && !ONLY.includes(name.split(',')[0]!)) continue;
    const ms: number[] = [];
    for (let i = 0; i < 20; i++) {
      await published();
      const t = performance.now();
      const res = await fetch(url + path);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      ms.push(performance.now() - t);
    }
    ms.sort((a, b) => a - b);
    const p99 = ms[Math.ceil(ms.length * 0.99) - 1]!;
    const cached = checkLoad(`${name} cached@8`, await loadOnly(url, [path], 8, { duration: 3 }));
    console.log(
      `  ${name.padEnd(32)} uncached@1 p50 ${ms[ms.length >> 1]!.toFixed(0)} / p99 ${p99.toFixed(0)} ms (a new precompute published before each); cached@8 ${cached.rps.toFixed(0)} req/s  p99 <= 10 ms: ${goal(p99 <= 10)}`,
    );
    met &&= p99 <= 10;
  }
  return met;
}
