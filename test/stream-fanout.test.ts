// Two API processes against one real Redis and one PostgreSQL: a price update published once
// reaches a subscriber on each, and a key revoked on one instance is cut off on the other.
// Without REDIS_URL (the embedded pass) this file starts its own redis-server.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { repoRoot } from '../sql/runtime/paths.js';
import { freePort } from '../sql/runtime/ports.js';
import { CLOSE } from '../api/stream/priceStream.js';
import { publishPriceUpdates } from '../ingest/pipeline.js';
import { accountWithKey } from './support/accounts.js';
import { startStack, type Stack } from './support/stack.js';
import { StreamClient } from './support/ws.js';

let redisServer: ChildProcess | null = null;
let redisUrl: string;
let stack: Stack;
let second: ChildProcess;
let secondUrl: string;
let secondDir: string;

async function startRedisServer(): Promise<string> {
  const port = await freePort();
  redisServer = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const url = `redis://127.0.0.1:${port}`;
  const { Redis } = await import('ioredis');
  for (let i = 0; i < 100; i++) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    const up = await probe.connect().then(
      () => probe.ping(),
      () => null,
    );
    probe.disconnect();
    if (up === 'PONG') return url;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('redis-server did not start (test/run.sh installs it)');
}

/** A second API instance: its own process and port, the first one's PostgreSQL and Redis. */
async function startSecondInstance(): Promise<string> {
  secondDir = await fs.mkdtemp(path.join(os.tmpdir(), 'holo-second-'));
  const port = await freePort();
  second = spawn(process.execPath, [path.join(repoRoot, 'dist', 'api', 'main.js')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOLO_PORTAL_PORT: String(await freePort()),
      HOLO_DATA_DIR: secondDir,
      DATABASE_URL: stack.stores.pg.url,
      REDIS_URL: redisUrl,
      HOLO_REDIS_PREFIX: stack.config.redisPrefix,
      HOLO_INGEST: 'off',
      HOLO_DEMO: 'none',
      HOLO_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  second.stderr!.on('data', (d) => (output += d));
  await new Promise<void>((resolve, reject) => {
    second.stdout!.on('data', (d) => {
      output += d;
      if (output.includes('Holo is up')) resolve();
    });
    second.once('exit', (code) => reject(new Error(`second instance exited (${code}):\n${output}`)));
  });
  return `http://127.0.0.1:${port}`;
}

before(async () => {
  redisUrl = process.env.REDIS_URL ?? (await startRedisServer());
  stack = await startStack({ demo: 'none', env: { REDIS_URL: redisUrl } });
  secondUrl = await startSecondInstance();
});
after(async () => {
  if (second && second.exitCode === null) {
    const exited = new Promise((r) => second.once('exit', r));
    second.kill('SIGTERM');
    await exited;
  }
  await stack?.close();
  redisServer?.kill();
  if (secondDir) await fs.rm(secondDir, { recursive: true, force: true });
});

const ws = (base: string, key: string) => `${base.replace('http', 'ws')}/api/v1/stream?api_key=${key}`;

async function subscribed(base: string, key: string, card: number): Promise<StreamClient> {
  const c = await StreamClient.connect(ws(base, key));
  c.send({ type: 'subscribe', topics: [`card:${card}`] });
  await c.waitFor((m) => m.type === 'subscribed');
  return c;
}

describe('fan-out across API instances', () => {
  it('one published update reaches a subscriber on each instance', async () => {
    const { key } = await accountWithKey(stack, 'fanout', 'pro');
    const onFirst = await subscribed(stack.url, key, 4242);
    const onSecond = await subscribed(secondUrl, key, 4242);
    const elsewhere = await subscribed(secondUrl, key, 777);
    await publishPriceUpdates(stack.stores.redis, stack.config.redisPrefix, [{ card_id: 4242, market_price: 19.99, currency: 'EUR' }]);
    const expected = { type: 'price_update', data: { card_id: 4242, market_price: 19.99, currency: 'EUR' } };
    assert.deepEqual(await onFirst.waitFor((m) => m.type === 'price_update'), expected);
    assert.deepEqual(await onSecond.waitFor((m) => m.type === 'price_update'), expected);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(elsewhere.messages.filter((m) => m.type === 'price_update').length, 0);
    for (const c of [onFirst, onSecond, elsewhere]) c.close();
  });

  it('a key revoked through one instance is cut off on the other at once', async () => {
    const account = await accountWithKey(stack, 'cutoff', 'starter');
    const onSecond = await subscribed(secondUrl, account.key, 1);
    const keys = (await (await fetch(`${stack.url}/api/keys/`, { headers: account.headers })).json()) as { items: { id: number }[] };
    assert.equal((await fetch(`${stack.url}/api/keys/${keys.items[0]!.id}`, { method: 'DELETE', headers: account.headers })).status, 200);
    assert.deepEqual(await onSecond.closed, { code: CLOSE.unauthorized, reason: 'API key revoked or suspended' });
    assert.equal((await fetch(`${secondUrl}/api/keys/`, { headers: account.headers })).status, 401);
  });

  it("an admin's change to a key takes effect on the other instance at once", async () => {
    const account = await accountWithKey(stack, 'managed-elsewhere', 'starter');
    const admin = await accountWithKey(stack, 'keys-admin', 'free', { admin: true });
    const limitOnSecond = async () => (await fetch(`${secondUrl}/auth/me`, { headers: account.headers })).headers.get('x-ratelimit-limit');
    assert.equal(await limitOnSecond(), '60', 'cached on the second instance now');
    const keyId = ((await (await fetch(`${stack.url}/api/developer/key`, { headers: account.headers })).json()) as { id: number }).id;
    const patch = (body: object) =>
      fetch(`${stack.url}/admin/api-keys/${keyId}`, {
        method: 'PATCH',
        headers: { ...admin.headers, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    assert.equal((await patch({ rate_limit_per_minute: 5 })).status, 200);
    assert.equal(await limitOnSecond(), '5');
    const onSecond = await subscribed(secondUrl, account.key, 1);
    assert.equal((await patch({ is_active: false })).status, 200);
    assert.equal((await onSecond.closed).code, CLOSE.unauthorized, 'its open stream closes');
    assert.equal((await fetch(`${secondUrl}/auth/me`, { headers: account.headers })).status, 401);
  });
});
