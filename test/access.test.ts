// The access matrix: every route of the route table (allRoutes, plus what the app mounts beside it)
// against every kind of caller, generated, so a new route or a new tier cannot escape it. Callers:
// nobody; a session cookie and an API key of every tier in schemas/tiers.ts; keys issued below
// their account's tier; an administrator's session and key (on a Free account, so only the admin
// flag can admit them); the operator token.
// Allowed means the request got past authentication and authorisation (its handler may still
// answer 400, 404 or 422 to the dummy input); refused means 401 for nobody and 403 for the rest.
// What each route should allow is the table in support/routeAccess.ts (written from the spec),
// never the route's own tag: a route tagged wrong fails whether or not it behaves as tagged.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { allRoutes } from '../api/app.js';
import type { Access } from '../api/auth/principal.js';
import { DEPRECATIONS } from '../api/http/deprecations.js';
import { versionFolder } from '../ingest/export/bulkExport.js';
import { BULK_ACCESS } from '../schemas/bulk.js';
import { TIER_NAMES } from '../schemas/tiers.js';
import { recordBulkFile } from '../sql/bulk.js';
import { accountWithKey } from './support/accounts.js';
import { call } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';
import { ROUTE_ACCESS, STARTER_AND_UP, expected, type Caller } from './support/routeAccess.js';

/** The one refusal the operator token may get from a route its tag admits it to: it has no account. */
const NO_ACCOUNT = /needs a user account/;

/** Routes that end the caller's session: asked last, so every other answer is the session's. */
const ENDS_THE_SESSION = new Set(['POST /auth/logout']);

// Ids that name nothing: a walk that calls DELETE and POST routes must not change anything.
const fill = (p: string) =>
  p.replace(/\{(\w+)\}/g, (_, name: string) =>
    /slug/.test(name)
      ? 'pokemon'
      : name === 'workflow_id'
        ? 'none'
        : name === 'token'
          ? 'x.y'
          : name === 'filename'
            ? 'x.parquet'
            : '999999',
  );

let stack: Stack;
const callers: Caller[] = [];

before(async () => {
  stack = await startStack({ demo: 'none' });
  callers.push({ name: 'anonymous', kind: 'anonymous', headers: {} });
  const login = async (username: string) => {
    const res = await call(stack, 'POST', '/auth/login', { body: { username, password: 'long enough password' } });
    assert.equal(res.status, 200, `login ${username}`);
    return { Cookie: res.cookie! };
  };
  for (const tier of TIER_NAMES) {
    const account = await accountWithKey(stack, `m_${tier}`, tier);
    callers.push({ name: `${tier} key`, kind: 'key', tier, admin: false, headers: account.headers });
    callers.push({ name: `${tier} session`, kind: 'session', tier, admin: false, headers: await login(`m_${tier}`) });
  }
  // A key below its account's tier: the key's tier decides, whatever the account holds.
  for (const [account, key] of [
    ['pro', 'free'],
    ['business', 'starter'],
    ['shop_pro', 'pro'],
    ['unlimited', 'shop_basic'],
    ['power_collector', 'starter'],
  ] as const) {
    const held = await accountWithKey(stack, `m_${account}_${key}`, account, { keyTier: key });
    callers.push({ name: `${account} account with a ${key} key`, kind: 'key', tier: key, admin: false, headers: held.headers });
  }
  const admin = await accountWithKey(stack, 'm_admin', 'free', { admin: true });
  callers.push({ name: 'admin key', kind: 'key', tier: 'free', admin: true, headers: admin.headers });
  callers.push({ name: 'admin session', kind: 'session', tier: 'free', admin: true, headers: await login('m_admin') });
  // The walk calls every route with every key: limits would answer 429 before the handler runs.
  await stack.stores.pg.pool.query('UPDATE api_keys SET per_minute_limit = 1000000, daily_limit = 1000000000');
  const operator = fs.readFileSync(path.join(stack.config.dataDir, 'admin-token'), 'utf8').trim();
  callers.push({ name: 'operator token', kind: 'operator', headers: { Authorization: `Bearer ${operator}` } });
});
after(async () => {
  await stack?.close();
});

// Requests in flight at once: most time is waiting (PostgreSQL, chDB, an absent Temporal's
// timeouts), so more than the two cores, yet bounded.
const WIDTH = 16;
type Probe = { method: string; path: string; access: Access };

/** One request; the status and, for a refusal, its detail. Event streams never end: their headers are the answer. */
async function ask(p: Probe, c: Caller): Promise<{ status: number; detail: string }> {
  const res = await fetch(stack.url + fill(p.path), { method: p.method, headers: { ...c.headers, Accept: 'application/json' } });
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, detail: '' };
  }
  const text = await res.text();
  let detail = '';
  if (res.status === 401 || res.status === 403)
    try {
      detail = String((JSON.parse(text) as { detail?: unknown }).detail);
    } catch {
      detail = text.slice(0, 80);
    }
  return { status: res.status, detail };
}

/** Runs `tasks` with at most `width` in flight (two cores: enough to overlap waiting, not to thrash). */
async function bounded<T>(tasks: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

/** Every probe × every caller: the disagreements with `expected`, one line each. */
async function walk(probes: Probe[]): Promise<string[]> {
  const failures: string[] = [];
  const check = (p: Probe, c: Caller) => async () => {
    const { status, detail } = await ask(p, c);
    const want = expected(p.access, c);
    const refused = status === 401 || status === 403;
    const ok = want === 'allowed' ? !refused || (c.kind === 'operator' && status === 403 && NO_ACCOUNT.test(detail)) : status === want;
    if (!ok) failures.push(`${p.method} ${p.path} (${p.access}) as ${c.name}: ${status}${detail ? ` ${detail}` : ''}, expected ${want}`);
  };
  const key = (p: Probe) => `${p.method} ${p.path}`;
  const pairs = (ps: Probe[]) => ps.flatMap((p) => callers.map((c) => check(p, c)));
  await bounded(pairs(probes.filter((p) => !ENDS_THE_SESSION.has(key(p)))), WIDTH);
  await bounded(pairs(probes.filter((p) => ENDS_THE_SESSION.has(key(p)))), WIDTH);
  return failures.sort();
}

describe('access matrix', () => {
  it('has every kind of caller', () => {
    const names = callers.map((c) => c.name);
    for (const tier of TIER_NAMES) assert.ok(names.includes(`${tier} session`) && names.includes(`${tier} key`), tier);
    for (const name of ['anonymous', 'admin key', 'admin session', 'operator token']) assert.ok(names.includes(name), name);
  });

  it('lists a bulk file with a link only to a caller its tier admits, and a link opens only its own file', async () => {
    const db = stack.stores.pg.pool;
    const files = await Promise.all(
      (['catalogue', 'latest', 'prices'] as const).map(async (kind) => {
        const filename = `matrix-${kind}.ndjson.gz`;
        const bytes = Buffer.from(`${kind}\n`);
        const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
        const dir = path.join(stack.config.dataDir, 'exports', versionFolder(sha256));
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, filename), bytes);
        await recordBulkFile(
          db,
          `matrix-${kind}`,
          'ndjson.gz',
          filename,
          kind,
          kind === 'latest' ? null : 'pokemon',
          kind === 'prices' ? '2024-01-01' : null,
          1,
          bytes.length,
          sha256,
          'stamp',
        );
        return { kind, filename };
      }),
    );
    const failures: string[] = [];
    const links = new Map<string, string>();
    await bounded(
      callers
        .filter((c) => c.kind === 'session' || c.kind === 'key')
        .map((c) => async () => {
          const res = await call(stack, 'GET', '/api/v2/bulk', { headers: c.headers });
          if (res.status !== 200) return void failures.push(`listing as ${c.name}: ${res.status}`);
          for (const f of files) {
            const url = (res.body.datasets as { files: { filename: string; url: string | null }[] }[])
              .flatMap((d) => d.files)
              .find((x) => x.filename === f.filename)?.url;
            const want = expected(BULK_ACCESS[f.kind], c) === 'allowed';
            if (Boolean(url) !== want) failures.push(`${f.kind} as ${c.name}: url ${url ? 'given' : 'null'}`);
            if (url) {
              links.set(f.kind, url);
              const got = await fetch(stack.url + url);
              if (got.status !== 200) failures.push(`${f.kind} as ${c.name}: its link answered ${got.status}`);
              await got.arrayBuffer();
            }
          }
        }),
      4,
    );
    assert.deepEqual(failures.sort(), []);
    // A link is for its file alone: a Starter's link to the latest prices does not open Pro's history.
    const token = links.get('latest')!.split('/')[2]!;
    const prices = files.find((f) => f.kind === 'prices')!.filename;
    assert.equal((await fetch(`${stack.url}/dl/${token}/${prices}`)).status, 403);
  });

  it('the price stream admits a Starter-or-higher key in api_key, and no cookie', async () => {
    // Spec, Authentication 12: the stream authenticates with the api_key parameter alone, so a
    // session's cookie (sent by any page a browser opens) is no credential there.
    const failures: string[] = [];
    await bounded(
      callers.map((c) => async () => {
        const key = c.kind === 'key' || c.kind === 'operator' ? c.headers.Authorization!.replace(/^Bearer /, '') : null;
        const url = `${stack.url.replace(/^http/, 'ws')}/api/v1/stream${key ? `?api_key=${encodeURIComponent(key)}` : ''}`;
        const socket = new WebSocket(url, { headers: c.kind === 'session' ? c.headers : {} });
        const answer = await new Promise<string>((resolve) => {
          socket.on('open', () => socket.send(JSON.stringify({ type: 'subscribe', topics: ['card:1'] })));
          socket.on('message', (data) => {
            if ((JSON.parse((data as Buffer).toString()) as { type: string }).type === 'subscribed') resolve('subscribed');
          });
          socket.on('close', (code) => resolve(String(code)));
          socket.on('error', (err) => resolve(err.message));
        });
        socket.close();
        const want = c.kind === 'key' ? (STARTER_AND_UP.includes(c.tier) ? 'subscribed' : '4403') : '4401';
        if (answer !== want) failures.push(`${c.name}: ${answer}, expected ${want}`);
      }),
      WIDTH,
    );
    assert.deepEqual(failures.sort(), []);
  });

  it("tags every route with the access the test's own table gives it, and the table names only routes that exist", () => {
    const routes = allRoutes(stack.server.deps);
    const declared = new Map(routes.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r.access]));
    assert.equal(declared.size, routes.length, 'one route per method and path');
    const problems: string[] = [];
    for (const [route, access] of declared) {
      const want = ROUTE_ACCESS[route];
      if (want === undefined) problems.push(`${route}: tagged ${access}, not in test/support/routeAccess.ts`);
      else if (want !== access) problems.push(`${route}: tagged ${access}, the table says ${want}`);
    }
    for (const route of Object.keys(ROUTE_ACCESS)) if (!declared.has(route)) problems.push(`${route}: in the table, no such route`);
    assert.deepEqual(problems.sort(), []);
  });

  // Last: its final phase ends every session.
  it('every route answers every caller as the access table says', async () => {
    const routes = allRoutes(stack.server.deps);
    assert.ok(routes.length > 60);
    // Expected outcomes come from the table, not from the route's own tag: a mis-tagged route that
    // behaves as its tag says still disagrees here.
    const probes: Probe[] = routes.map((r) => {
      const method = r.method.toUpperCase();
      return { method, path: r.path, access: ROUTE_ACCESS[`${method} ${r.path}`] ?? r.access };
    });
    // Mounted beside the route table: the ClickHouse interface's trailing-slash form (what clients
    // send), the OpenAPI document, uploaded images and the /dev redirect.
    for (const r of routes.filter((r) => r.path === '/clickhouse'))
      probes.push({ method: r.method.toUpperCase(), path: '/clickhouse/', access: ROUTE_ACCESS[`${r.method.toUpperCase()} /clickhouse`]! });
    probes.push(
      { method: 'GET', path: '/openapi.json', access: 'free' },
      { method: 'GET', path: '/static/images/cards/{card_id}/small', access: 'free' },
      { method: 'GET', path: '/static/images/avatars/{name}', access: 'free' },
      { method: 'GET', path: '/dev', access: 'free' },
    );
    assert.deepEqual(await walk(probes), []);
  });

  it('marks deprecated endpoints with Deprecation, Sunset and a successor link', async () => {
    for (const d of DEPRECATIONS) {
      const res = await fetch(stack.url + d.path);
      assert.equal(res.headers.get('deprecation'), 'true');
      assert.equal(res.headers.get('sunset'), new Date(`${d.sunset}T00:00:00Z`).toUTCString());
      assert.equal(res.headers.get('link'), `<${d.successor}>; rel="successor-version"`);
    }
    const doc = (await (await fetch(`${stack.url}/openapi.json`)).json()) as any;
    assert.equal(doc.paths['/api/market-movers'].get.deprecated, true);
    assert.equal(doc.paths['/api/market/movers'].get.deprecated, undefined);
  });
});
