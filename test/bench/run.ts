// npm run bench: the v2 hot paths against two ceilings serving a same-size body, in one run.
// Holo runs in this process on the embedded stores (chDB must), each ceiling and the load
// generator in processes of their own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../schemas/config.js';
import { createLogger } from '../../sql/runtime/log.js';
import { migrateClickHouse, migratePostgres } from '../../sql/stores/migrate.js';
import { openStores } from '../../sql/stores/index.js';
import { buildDeps, startServer } from '../../api/server.js';
import { loadDemoDataIfEmpty } from '../../ingest/demo/index.js';
import { announcePricesLanded } from '../../sql/stores/priceChannels.js';
import { createDb } from '../../sql/stores/db.js';
import { createKey, createUser } from '../../api/auth/accounts.js';
import { checkLoad, cpuMicros, finish, goal, invalid, loadOnly, runChild, type LoadResult } from './harness.js';

const DURATION = Number(process.env.HOLO_BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.HOLO_BENCH_ROUNDS ?? 5);
type Result = LoadResult;

async function load(
  url: string,
  paths: string[],
  connections: number,
  opts: { amount?: number; accept?: string; serverPid?: number; headers?: Record<string, string> } = {},
): Promise<Result & { cpuPerRequestUs: number }> {
  const before = cpuMicros(opts.serverPid);
  const result = await loadOnly(url, paths, connections, { ...opts, duration: DURATION });
  return { ...result, cpuPerRequestUs: (cpuMicros(opts.serverPid) - before) / Math.max(1, result.requests) };
}

// The benchmark measures serving, not the anonymous rate limit (30 a minute per address).
const config = loadConfig({ ...process.env, HOLO_ANONYMOUS_RATE_LIMIT: '1000000' });
const log = createLogger('warn');
console.log(`benchmark: data in ${config.dataDir} (first run loads the full demo, about 2 minutes)`);
const stores = await openStores(config, log);
await migratePostgres(stores.pg, log);
await migrateClickHouse(stores.ch, log);
await loadDemoDataIfEmpty(config, stores, log);
// The access log is formatted as in production and then dropped, so its cost is measured but
// the benchmark's terminal stays readable.
const deps = await buildDeps(
  config,
  stores,
  createLogger('info', {}, () => undefined),
);
const server = await startServer(deps, 0, '127.0.0.1');
const pool = stores.pg.pool;

const cardIds = (
  await pool.query<{ id: number }>(`SELECT c.id FROM cards c JOIN games g ON g.id = c.game_id ORDER BY md5(c.id::text) LIMIT 30000`)
).rows.map((r) => r.id);
const setIds = (await pool.query<{ id: number }>(`SELECT id FROM sets ORDER BY id`)).rows.map((r) => r.id);
const charizard =
  (await pool.query<{ id: number }>(`SELECT id FROM cards WHERE external_key = 'pokemontcg:base1-4'`)).rows[0]?.id ?? cardIds[0]!;

const detailAnswer = await fetch(`${server.url}/api/v2/cards/${charizard}`);
const detailBody = await detailAnswer.text();
if (detailAnswer.status !== 200) invalid(`the card detail the ceilings serve answered ${detailAnswer.status}`);
const bodyFile = path.join(os.tmpdir(), `holo-bench-body-${process.pid}.json`);
fs.writeFileSync(bodyFile, detailBody);
const ceilings = ['bare', 'koa'].map((kind) => runChild('ceiling.js', [kind, bodyFile]));
const [barePort, koaPort] = await Promise.all(ceilings.map((c) => c.firstLine));

const report = <T extends Result & { cpuPerRequestUs: number }>(name: string, r: T) => {
  checkLoad(name, r);
  console.log(
    `${name.padEnd(42)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms  server CPU ${r.cpuPerRequestUs.toFixed(0).padStart(5)} us/req  (${r.requests} requests, ${r.non2xx} non-2xx, ${r.errors} errors)`,
  );
  return r;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const detailPath = `/api/v2/cards/${charizard}`;

// chDB merges freshly loaded parts in the background; measure the steady state after they settle.
for (let i = 0; i < 120; i++) {
  const [m] = await deps.analytics.rows<{ n: string }>(`SELECT toString(count()) AS n FROM system.merges`);
  if (Number(m?.n ?? 0) === 0) break;
  await new Promise((r) => setTimeout(r, 1000));
}

console.log(
  `\nbody ${detailBody.length} bytes; ${DURATION} s per throughput scenario at 10 connections; uncached scenarios run a fixed number of distinct cards`,
);
console.log(
  `This 2-core VM is noisy, so the ceilings and the cached route run in ${ROUNDS} interleaved rounds; ratios are medians of per-round ratios.\n`,
);
const koaVsBare: number[] = [];
const cachedVsKoa: number[] = [];
const cachedVsBare: number[] = [];
const cpuCachedVsKoa: number[] = [];
const [barePid, koaPid] = ceilings.map((c) => c.child.pid!);
for (let round = 1; round <= ROUNDS; round++) {
  const bare = report(
    `[${round}] ceiling: bare node:http`,
    await load(`http://127.0.0.1:${barePort}`, [detailPath], 10, { serverPid: barePid }),
  );
  const koa = report(
    `[${round}] ceiling: minimal Koa + router`,
    await load(`http://127.0.0.1:${koaPort}`, [detailPath], 10, { serverPid: koaPid }),
  );
  const cached = report(`[${round}] v2 card detail, cached`, await load(server.url, [detailPath], 10));
  koaVsBare.push(koa.rps / bare.rps);
  cachedVsKoa.push(cached.rps / koa.rps);
  cachedVsBare.push(cached.rps / bare.rps);
  // Capacity by CPU: how many requests a core serves, independent of the load generator's limits.
  cpuCachedVsKoa.push(koa.cpuPerRequestUs / cached.cpuPerRequestUs);
}

// Uncached: a fresh prices epoch empties the cache, and every request names a card not yet read.
await announcePricesLanded(stores.redis, config.redisPrefix);
await new Promise((r) => setTimeout(r, 50));
const half = Math.floor(cardIds.length / 2);
const uncached = report(
  'v2 card detail, uncached (PostgreSQL)',
  await load(
    server.url,
    cardIds.slice(0, half).map((id) => `/api/v2/cards/${id}`),
    4,
    { amount: half },
  ),
);
report(
  'v2 set listing (size 60)',
  await load(
    server.url,
    setIds.map((id) => `/api/v2/sets/${id}`),
    10,
  ),
);
// A new prices epoch with no precompute published under it (the window right after prices land):
// the precomputed series serve only their own epoch, so this is ClickHouse's history; bench:analytics
// measures the history answered from the precomputed series.
await announcePricesLanded(stores.redis, config.redisPrefix);
await new Promise((r) => setTimeout(r, 50));
const historyPaths = cardIds.slice(half, half + 3000).map((id) => `/api/v2/cards/${id}/history?days=365`);
const history = report(
  'v2 365-day history, uncached, from ClickHouse (new epoch), 1 conn',
  await load(server.url, historyPaths.slice(0, 1500), 1, { amount: 1500 }),
);
report(
  'v2 365-day history, uncached, from ClickHouse (new epoch), 4 conns',
  await load(server.url, historyPaths.slice(1500), 4, { amount: 1500 }),
);

// Authentication and rate limiting: the same cached route with an API key (a tier whose limits the
// run cannot reach) and anonymously, in interleaved rounds; the overhead is the server CPU per
// request the key path adds, and the p50 latency difference.
const db = createDb(pool);
const benchUser = await createUser(db, {
  username: `bench${Date.now()}`,
  email: `bench${Date.now()}@example.com`,
  password: 'benchmark password',
});
await pool.query(`UPDATE users SET tier = 'unlimited' WHERE id = $1`, [benchUser.id]);
const { key: benchKey } = await createKey(db, { ...benchUser, tier: 'unlimited' }, { name: 'benchmark' });
const keyCpu: number[] = [];
const keyP50: number[] = [];
for (let round = 1; round <= 3; round++) {
  const anon = report(`[${round}] v2 card detail, cached, anonymous`, await load(server.url, [detailPath], 10));
  const keyed = report(
    `[${round}] v2 card detail, cached, with API key`,
    await load(server.url, [detailPath], 10, { headers: { Authorization: `Bearer ${benchKey}` } }),
  );
  keyCpu.push(keyed.cpuPerRequestUs - anon.cpuPerRequestUs);
  keyP50.push(keyed.p50 - anon.p50);
}

const verdict = goal;
const r = (xs: number[]) => `${median(xs).toFixed(2)} (rounds: ${xs.map((x) => x.toFixed(2)).join(' ')})`;
console.log('\nratios and goals');
console.log(`  minimal Koa / bare node:http          ${r(koaVsBare)}`);
console.log(`  cached card detail / minimal Koa      ${r(cachedVsKoa)}  goal >= 0.75: ${verdict(median(cachedVsKoa) >= 0.75)}`);
console.log(`  cached card detail / bare node:http   ${r(cachedVsBare)}`);
console.log(`  CPU capacity, cached / minimal Koa    ${r(cpuCachedVsKoa)}  (server CPU per request, Koa's over ours)`);
console.log(`  uncached card detail p99              ${uncached.p99} ms  goal <= 20 ms: ${verdict(uncached.p99 <= 20)}`);
console.log(`  365-day history from ClickHouse p99 (1 connection) ${history.p99} ms  goal <= 30 ms: ${verdict(history.p99 <= 30)}`);
console.log(
  `  API key auth + rate limit, per request ${(median(keyCpu) / 1000).toFixed(3)} ms server CPU (rounds: ${keyCpu.map((x) => (x / 1000).toFixed(3)).join(' ')}), p50 latency +${median(keyP50)} ms  goal <= 0.2 ms: ${verdict(median(keyCpu) / 1000 <= 0.2)}`,
);

for (const c of ceilings) c.child.kill();
fs.rmSync(bodyFile, { force: true });
await server.close();
await stores.close();
finish();
