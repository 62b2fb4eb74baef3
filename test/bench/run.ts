// npm run bench: the v2 hot paths against two ceilings serving a same-size body, in one run.
// Holo runs in this process on the embedded stores (chDB must), each ceiling and the load
// generator in processes of their own.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../api/core/config.js';
import { createLogger } from '../../api/core/log.js';
import { migrateClickHouse, migratePostgres } from '../../api/core/migrate.js';
import { openStores } from '../../api/core/stores/index.js';
import { buildDeps, startServer } from '../../api/server.js';
import { loadDemoDataIfEmpty } from '../../ingest/demo/index.js';
import { announcePricesLanded } from '../../api/core/cache.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const DURATION = Number(process.env.HOLO_BENCH_SECONDS ?? 10);
type Result = { rps: number; p50: number; p99: number; requests: number; non2xx: number; errors: number };

function runChild(script: string, args: string[]): { child: ChildProcess; firstLine: Promise<string> } {
  const child = spawn(process.execPath, [path.join(here, script), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const firstLine = new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(buf.slice(0, nl));
    });
    child.on('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
  return { child, firstLine };
}

async function load(url: string, paths: string[], connections: number, opts: { amount?: number; accept?: string } = {}): Promise<Result> {
  const { firstLine } = runChild('load.js', [JSON.stringify({ url, paths, connections, duration: DURATION, ...opts })]);
  return JSON.parse(await firstLine) as Result;
}

const config = loadConfig();
const log = createLogger('warn');
console.log(`benchmark: data in ${config.dataDir} (first run loads the full demo, about 2 minutes)`);
const stores = await openStores(config, log);
await migratePostgres(stores.pg, log);
await migrateClickHouse(stores.ch, log);
await loadDemoDataIfEmpty(config, stores, log);
const deps = await buildDeps({ ...config, logLevel: 'warn' }, stores, createLogger('warn'));
const server = await startServer(deps, 0, '127.0.0.1');
const pool = stores.pg.pool;

const cardIds = (await pool.query<{ id: number }>(`SELECT c.id FROM cards c JOIN games g ON g.id = c.game_id ORDER BY md5(c.id::text) LIMIT 30000`)).rows.map((r) => r.id);
const setIds = (await pool.query<{ id: number }>(`SELECT id FROM sets ORDER BY id`)).rows.map((r) => r.id);
const charizard = (await pool.query<{ id: number }>(`SELECT id FROM cards WHERE external_key = 'pokemontcg:base1-4'`)).rows[0]?.id ?? cardIds[0]!;

const detailBody = await (await fetch(`${server.url}/api/v2/cards/${charizard}`)).text();
const bodyFile = path.join(os.tmpdir(), `holo-bench-body-${process.pid}.json`);
fs.writeFileSync(bodyFile, detailBody);
const ceilings = ['bare', 'koa'].map((kind) => runChild('ceiling.js', [kind, bodyFile]));
const [barePort, koaPort] = await Promise.all(ceilings.map((c) => c.firstLine));

const rows: [string, Result][] = [];
const report = (name: string, r: Result) => {
  rows.push([name, r]);
  console.log(`${name.padEnd(38)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms  (${r.requests} requests, ${r.non2xx} non-2xx, ${r.errors} errors)`);
};
const detailPath = `/api/v2/cards/${charizard}`;
console.log(`\nbody ${detailBody.length} bytes; ${DURATION} s per scenario; throughput at 10 connections, latency at 4\n`);
report('ceiling: bare node:http', await load(`http://127.0.0.1:${barePort}`, [detailPath], 10));
report('ceiling: minimal Koa + router', await load(`http://127.0.0.1:${koaPort}`, [detailPath], 10));
report('v2 card detail, cached', await load(server.url, [detailPath], 10));

// Uncached: a fresh prices epoch empties the cache, and every request names a card not yet read.
await announcePricesLanded(stores.redis, config.redisPrefix);
await new Promise((r) => setTimeout(r, 50));
const half = Math.floor(cardIds.length / 2);
report('v2 card detail, uncached (PostgreSQL)', await load(server.url, cardIds.slice(0, half).map((id) => `/api/v2/cards/${id}`), 4, { amount: half }));
report('v2 set listing (size 60)', await load(server.url, setIds.map((id) => `/api/v2/sets/${id}`), 10));
await announcePricesLanded(stores.redis, config.redisPrefix);
await new Promise((r) => setTimeout(r, 50));
report('v2 365-day history, uncached (ClickHouse)', await load(server.url, cardIds.slice(half).map((id) => `/api/v2/cards/${id}/history?days=365`), 4, { amount: cardIds.length - half }));

const get = (name: string) => rows.find(([n]) => n === name)![1];
const koa = get('ceiling: minimal Koa + router');
const bare = get('ceiling: bare node:http');
const cached = get('v2 card detail, cached');
const uncached = get('v2 card detail, uncached (PostgreSQL)');
const history = get('v2 365-day history, uncached (ClickHouse)');
const verdict = (ok: boolean) => (ok ? 'meets goal' : 'MISSES goal');
console.log('\nratios and goals');
console.log(`  minimal Koa / bare node:http          ${(koa.rps / bare.rps).toFixed(2)}`);
console.log(`  cached card detail / minimal Koa      ${(cached.rps / koa.rps).toFixed(2)}  (goal >= 0.75: ${verdict(cached.rps / koa.rps >= 0.75)})`);
console.log(`  cached card detail / bare node:http   ${(cached.rps / bare.rps).toFixed(2)}`);
console.log(`  uncached card detail p99              ${uncached.p99} ms (goal <= 20 ms: ${verdict(uncached.p99 <= 20)})`);
console.log(`  365-day history p99                   ${history.p99} ms (goal <= 30 ms: ${verdict(history.p99 <= 30)})`);

for (const c of ceilings) c.child.kill();
fs.rmSync(bodyFile, { force: true });
await server.close();
await stores.close();
process.exit(0);
