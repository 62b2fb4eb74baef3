// npm run bench:production: the cached card detail as users run it. The server is started exactly
// as `npm start` starts it (node dist/api/main.js in its own process, stdout to a file, the default
// log level, ingestion in the process on the embedded stores), on free ports so a running Holo is
// not disturbed, with one deviation: the anonymous rate limit (30 a minute per address) is lifted,
// or every request after the 30th would be a 429. Each ceiling runs in a process of its own; the
// rounds interleave the three servers at 10 and at 50 connections; ratios are medians of per-round
// ratios; a round with any non-2xx answer or error makes the run invalid (exit 1).
// HOLO_BENCH_PROFILE=1 also records a CPU profile of the server (node --cpu-prof) and prints the top
// ten frames by self time while the cached route was under load.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../sql/runtime/ports.js';
import { cpuMicros, loadOnly, runChild, type LoadResult } from './harness.js';
import { topSelfFrames } from './profile.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..', '..');
const ROUNDS = Number(process.env.HOLO_BENCH_ROUNDS ?? 3);
const DURATION = Number(process.env.HOLO_BENCH_SECONDS ?? 5);
const CONNECTIONS = [10, 50];
const PROFILE = process.env.HOLO_BENCH_PROFILE === '1';
const dataDir = path.resolve(process.env.HOLO_DATA_DIR ?? '.holo-data');
const logLevel = process.env.HOLO_LOG_LEVEL ?? 'info';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'holo-bench-production-'));
const stdoutFile = path.join(work, 'holo.log');
const ports = {
  PORT: await freePort(),
  HOLO_PORTAL_PORT: await freePort(),
  HOLO_FEEDS_PORT: await freePort(),
  HOLO_TEMPORAL_PORT: await freePort(),
  HOLO_TEMPORAL_UI_PORT: await freePort(),
  HOLO_EMBEDDED_PG_PORT: await freePort(),
};
console.log(`benchmark (production configuration): data in ${dataDir}, server log ${stdoutFile}, log level ${logLevel}`);
const started = Date.now();
const server = spawn(
  process.execPath,
  [...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${work}`] : []), path.join(repo, 'dist', 'api', 'main.js')],
  {
    cwd: repo,
    env: {
      ...process.env,
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
      HOST: '127.0.0.1',
      HOLO_DATA_DIR: dataDir,
      HOLO_LOG_LEVEL: logLevel,
      HOLO_ANONYMOUS_RATE_LIMIT: '1000000',
    },
    stdio: ['ignore', fs.openSync(stdoutFile, 'w'), 'inherit'],
    detached: true,
  },
);
const url = `http://127.0.0.1:${ports.PORT}`;
const stop = () => {
  try {
    process.kill(-server.pid!, 'SIGTERM');
  } catch {
    // already gone
  }
};
process.on('exit', stop);

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, seconds: number): Promise<T> {
  for (let i = 0; i < seconds * 2; i++) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}) before ${what}; see ${stdoutFile}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`no ${what} after ${seconds} s; see ${stdoutFile}`);
}

await waitFor('banner', async () => (fs.readFileSync(stdoutFile, 'utf8').includes('Holo is up') ? true : undefined), 900);
const adminToken = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
// This start's first scrape of today is part of starting up; the steady state is after it.
const spawnedAt = new Date(started).toISOString();
await waitFor(
  'finished first scrape',
  async () => {
    const res = await fetch(`${url}/api/admin/ingest/runs`, { headers: { Authorization: `Bearer ${adminToken}` } });
    const runs = (await res.json()) as { items: { type: string; status: string; started_at: string }[] };
    return runs.items.some((r) => r.type === 'scrapeAll' && r.started_at >= spawnedAt && r.status !== 'RUNNING') ? true : undefined;
  },
  300,
);
const resolved = (await (await fetch(`${url}/api/v2/cards?game=pokemon&name=Charizard&number=4&set=base1`)).json()) as {
  items?: { id: number }[];
};
const detailPath = `/api/v2/cards/${resolved.items?.[0]?.id ?? 1}`;
const body = await (await fetch(url + detailPath)).text();
const bodyFile = path.join(work, 'body.json');
fs.writeFileSync(bodyFile, body);
const ceilings = ['bare', 'koa'].map((kind) => runChild('ceiling.js', [kind, bodyFile]));
const [barePort, koaPort] = await Promise.all(ceilings.map((c) => c.firstLine));
const serverPid = server.pid!;
console.log(`up in ${((Date.now() - started) / 1000).toFixed(0)} s; ${detailPath}, body ${body.length} bytes, ${DURATION} s per run\n`);

type Measured = LoadResult & { cpuPerRequestUs: number };
async function measure(target: string, pid: number, connections: number): Promise<Measured> {
  const before = cpuMicros(pid);
  const r = await loadOnly(target, [detailPath], connections, { duration: DURATION });
  return { ...r, cpuPerRequestUs: (cpuMicros(pid) - before) / Math.max(1, r.requests) };
}
const line = (name: string, r: Measured) =>
  console.log(
    `${name.padEnd(40)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms  server CPU ${r.cpuPerRequestUs.toFixed(0).padStart(5)} us/req  (${r.requests} requests, ${r.non2xx} non-2xx, ${r.errors} errors)`,
  );
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rounds = (xs: number[]) => `${median(xs).toFixed(2)} (rounds: ${xs.map((x) => x.toFixed(2)).join(' ')})`;

// A warm-up of every server (JIT, connection pools, the hot entry) that is not reported.
for (const target of [`http://127.0.0.1:${barePort}`, `http://127.0.0.1:${koaPort}`, url])
  await loadOnly(target, [detailPath], CONNECTIONS.at(-1)!, { duration: 2 });

let invalid = false;
const summary: string[] = [];
let profileWindow: [number, number] | null = null;
for (const connections of CONNECTIONS) {
  const vsKoa: number[] = [];
  const vsBare: number[] = [];
  const p99VsKoa: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const bare = await measure(`http://127.0.0.1:${barePort}`, ceilings[0]!.child.pid!, connections);
    line(`[${connections} conns, ${round}] bare node:http`, bare);
    const koa = await measure(`http://127.0.0.1:${koaPort}`, ceilings[1]!.child.pid!, connections);
    line(`[${connections} conns, ${round}] minimal Koa + router`, koa);
    const from = Date.now() - started;
    const holo = await measure(url, serverPid, connections);
    if (connections === CONNECTIONS.at(-1) && round === ROUNDS) profileWindow = [from, Date.now() - started];
    line(`[${connections} conns, ${round}] Holo cached card detail`, holo);
    for (const r of [bare, koa, holo]) if (r.non2xx > 0 || r.errors > 0) invalid = true;
    vsKoa.push(holo.rps / koa.rps);
    vsBare.push(holo.rps / bare.rps);
    p99VsKoa.push(holo.p99 / Math.max(1, koa.p99));
  }
  const goal = logLevel === 'info' ? 0.75 : 0.85;
  summary.push(
    `  ${connections} connections: cached / minimal Koa ${rounds(vsKoa)}  goal >= ${goal}: ${median(vsKoa) >= goal ? 'meets goal' : 'MISSES goal'}`,
    `  ${connections} connections: cached / bare node:http ${rounds(vsBare)}`,
    `  ${connections} connections: p99 cached / p99 Koa ${rounds(p99VsKoa)}  goal <= 2: ${median(p99VsKoa) <= 2 ? 'meets goal' : 'MISSES goal'}`,
  );
}
console.log(`\nratios and goals (log level ${logLevel}; the goal is 0.75 at info, 0.85 at warn)`);
for (const s of summary) console.log(s);
for (const c of ceilings) c.child.kill();
stop();
await new Promise<void>((resolve) => server.once('exit', () => resolve()));
if (PROFILE && profileWindow) {
  const file = fs.readdirSync(work).find((f) => f.endsWith('.cpuprofile'));
  if (file) {
    console.log(`\nCPU profile ${path.join(work, file)}: top frames by self time in the last ${CONNECTIONS.at(-1)}-connection round`);
    for (const f of topSelfFrames(path.join(work, file), profileWindow, 10)) console.log(`  ${f}`);
  }
}
if (invalid) {
  console.log('\nINVALID: a run answered non-2xx or failed requests');
  process.exit(1);
}
process.exit(0);
