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
import { repoRoot } from '../sql/paths.js';
import { freePort } from '../sql/runtime/ports.js';

const STARTS = 6;
let dataDir: string;
let env: NodeJS.ProcessEnv;
let base: string;
let running: ChildProcess | null = null;

before(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'holo-restart-'));
  await fs.chmod(dataDir, 0o755);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
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
    PORT: String(port),
    HOLO_PORTAL_PORT: String(await freePort()),
    HOLO_EMBEDDED_PG_PORT: String(await freePort()),
    HOLO_TEMPORAL_PORT: String(await freePort()),
    HOLO_TEMPORAL_UI_PORT: String(await freePort()),
    HOLO_FEEDS_PORT: String(await freePort()),
  };
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

async function json(p: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(base + p, { headers });
  return { status: res.status, body: await res.json() };
}

/** Starts the service in a process group of its own and waits until ingestion is up. */
async function start(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(repoRoot, 'dist', 'api', 'main.js')], {
    env,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`ingestion did not come up: ${stderr}`);
    const health = await json('/api/health').catch(() => null);
    if (health?.body.ingestion?.state === 'up') break;
    await new Promise((r) => setTimeout(r, 250));
  }
  running = child;
  return child;
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
    assert.equal(first.schedules.length, 5);
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
