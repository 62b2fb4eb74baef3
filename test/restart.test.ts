// `npm start`'s process, stopped and started again on one data directory, comes back every time:
// after SIGTERM (a clean shutdown) and after SIGKILL of its whole process group (stale
// postmaster.pid, chDB and Temporal's SQLite files left mid-write). Every start reaches ingestion
// "up" with its schedules, and the history already loaded is the same as before: nothing lost,
// nothing doubled.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { repoRoot } from '../sql/runtime/paths.js';
import { freePort } from '../sql/runtime/ports.js';
import { SCHEDULE_IDS } from '../workflows/schedules.js';
import { call } from './support/http.js';

const STARTS = 6;
let dataDir: string;
let env: NodeJS.ProcessEnv;
let base: string;
let running: ChildProcess | null = null;

/** Ports of its own for every listener; picked again when a start finds one taken. */
async function pickPorts(): Promise<void> {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  Object.assign(env, {
    PORT: String(port),
    HOLO_PORTAL_PORT: String(await freePort()),
    HOLO_EMBEDDED_PG_PORT: String(await freePort()),
    HOLO_TEMPORAL_PORT: String(await freePort()),
    HOLO_TEMPORAL_UI_PORT: String(await freePort()),
    HOLO_FEEDS_PORT: String(await freePort()),
  });
}

before(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'holo-restart-'));
  await fs.chmod(dataDir, 0o755);
  // Embedded stores only: restart safety is about the files in the data directory.
  const { DATABASE_URL: _pg, REDIS_URL: _redis, CLICKHOUSE_URL: _ch, TEMPORAL_ADDRESS: _temporal, ...inherited } = process.env;
  env = {
    ...inherited,
    NODE_ENV: 'test',
    HOLO_DATA_DIR: dataDir,
    HOLO_SHARED_DATA_DIR: path.resolve(repoRoot, '..', 'shared', 'data'),
    HOLO_DEMO: 'small',
    HOLO_DEMO_HISTORY_DAYS: '30',
    HOLO_LOG_LEVEL: 'warn',
    HOLO_ANONYMOUS_RATE_LIMIT: '1000000',
  };
  await pickPorts();
});

after(async () => {
  if (running?.pid) stopGroup(running, 'SIGKILL');
  await fs.rm(dataDir, { recursive: true, force: true }).catch(() => undefined);
});

function stopGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

/** GET through the tests' one typed client: the body has the type of the route's response. */
const json = <const P extends string>(p: P, headers: Record<string, string> = {}) => call(base, 'GET', p, { headers });

// Tests run side by side: a port free when picked may be taken by another test's server before
// this service binds it. That start fails at once saying so, and the next picks other ports.
const PORT_TAKEN = /EADDRINUSE|address already in use|port is in use/i;

/** Starts the service in a process group of its own and waits until ingestion is up. */
async function start(): Promise<ChildProcess> {
  for (let attempt = 1; ; attempt++) {
    const started = await startOnce();
    if ('child' in started) return started.child;
    if (attempt >= 3 || !PORT_TAKEN.test(started.output)) throw new Error(started.failure);
    await pickPorts();
  }
}

async function startOnce(): Promise<{ child: ChildProcess } | { failure: string; output: string }> {
  const child = spawn(process.execPath, [path.join(repoRoot, 'dist', 'api', 'main.js')], {
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Its log (stdout) and stderr, the last of them: why a start failed.
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-8000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) return { failure: `the service exited with ${child.exitCode}: ${output}`, output };
    if (Date.now() > deadline) throw new Error(`ingestion did not come up: ${output}`);
    const health = await json('/api/health').catch(() => null);
    if (health?.body.ingestion?.state === 'up') break;
    await new Promise((r) => setTimeout(r, 250));
  }
  running = child;
  return { child };
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  stopGroup(child, signal);
  await exited;
  running = null;
  // The group's other members (PostgreSQL, the Temporal dev server) go with it; give the kernel a moment.
  await new Promise((r) => setTimeout(r, 500));
}

/** What must survive a restart: the schedules and the given cards' history before today. */
async function snapshot(cardIds: number[]): Promise<{ schedules: string[]; history: unknown[] }> {
  const token = (await fs.readFile(path.join(dataDir, 'admin-token'), 'utf8')).trim();
  const schedules = await json('/api/admin/ingest/schedules', { Authorization: `Bearer ${token}` });
  assert.equal(schedules.status, 200);
  const today = new Date().toISOString().slice(0, 10);
  const history = [];
  for (const card of cardIds) {
    const h = await json(`/api/v2/cards/${card}/history?region=global&days=30`);
    history.push({ card, points: (h.body.points as { date: string }[]).filter((p) => p.date < today) });
  }
  return { schedules: (schedules.body.items as { id: string }[]).map((s) => s.id).sort(), history };
}

describe('restarts on one data directory', () => {
  it(`come back ${STARTS} times in a row, after SIGTERM and after SIGKILL of the process group`, async () => {
    let child = await start();
    // The dearest cards at the first start; today's scrape may reorder the list, not their past.
    const top = await json('/cards/top?limit=3');
    const cardIds = (top.body.items as { id: number }[]).map((c) => c.id);
    const first = await snapshot(cardIds);
    assert.equal(first.schedules.length, Object.values(SCHEDULE_IDS).length);
    assert.ok(
      first.history.some((h) => (h as { points: unknown[] }).points.length > 0),
      'the demo history is there',
    );
    for (let i = 1; i < STARTS; i++) {
      await stop(child, i % 2 === 1 ? 'SIGKILL' : 'SIGTERM');
      child = await start();
      assert.deepEqual(await snapshot(cardIds), first, `start ${i + 1}`);
    }
    await stop(child, 'SIGTERM');
  });
});
