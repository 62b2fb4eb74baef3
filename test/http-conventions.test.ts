// The HTTP core every route shares: CORS allow-list, caching headers, error shapes, request ids,
// the OpenAPI document, health counters, and graceful shutdown of in-flight requests.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createDb } from '../sql/stores/db.js';
import { createKey, createUser } from '../api/auth/accounts.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

describe('CORS', () => {
  it('echoes allowed origins and never answers *', async () => {
    for (const origin of [
      'https://holo.example',
      'https://www.holo.example',
      'https://developer.holo.example',
      'http://localhost:3000',
      'http://localhost:5173',
      'http://localhost:8000',
    ]) {
      const res = await stack.get('/api/v2/games', { Origin: origin });
      assert.equal(res.headers.get('access-control-allow-origin'), origin, origin);
      assert.match(res.headers.get('vary') ?? '', /Origin/);
    }
  });

  it('gives other origins no CORS grant and refuses their preflight', async () => {
    for (const origin of ['https://evil.example', 'http://localhost:4000', 'https://holo.example.evil.com', 'null']) {
      const res = await stack.get('/api/v2/games', { Origin: origin });
      assert.equal(res.status, 200, 'server-to-server style calls still work');
      assert.equal(res.headers.get('access-control-allow-origin'), null, origin);
    }
    const denied = await fetch(`${stack.url}/api/v2/games`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' },
    });
    assert.equal(denied.status, 403);
    assert.equal(denied.headers.get('access-control-allow-origin'), null);
    const allowed = await fetch(`${stack.url}/api/v2/games`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'GET' },
    });
    assert.equal(allowed.status, 204);
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'http://localhost:5173');
  });
});

describe('caching and errors', () => {
  it('marks every v2 success public with max-age between 120 and 300, and errors no-store', async () => {
    const card = (await stack.stores.pg.pool.query(`SELECT id, set_id FROM cards ORDER BY id LIMIT 1`)).rows[0];
    for (const path of [
      '/api/v2/stats',
      '/api/v2/games',
      '/api/v2/games/pokemon',
      `/api/v2/sets/${card.set_id}`,
      `/api/v2/cards/${card.id}`,
      `/api/v2/cards/${card.id}/history`,
      '/api/v2/cards?game=pokemon&name=Charizard',
    ]) {
      const res = await stack.get(path);
      assert.equal(res.status, 200, path);
      const m = /^public, max-age=(\d+)$/.exec(res.headers.get('cache-control') ?? '');
      assert.ok(m, `${path}: ${res.headers.get('cache-control')}`);
      assert.ok(Number(m[1]) >= 120 && Number(m[1]) <= 300, path);
    }
    const missing = await stack.get('/api/v2/cards/987654321');
    assert.equal(missing.headers.get('cache-control'), 'no-store');
  });

  it("answers a body that is not JSON with the route's own validation error, not a bare 400", async () => {
    const db = createDb(stack.stores.pg.pool);
    const user = await createUser(db, { username: 'badbodies', email: 'badbodies@example.com', password: 'long enough password' });
    const { key } = await createKey(db, { ...user, tier: 'pro' }, { name: 'bad bodies' });
    // Raw fetch, not the typed call: the bodies are malformed JSON, which call (it serialises a value) cannot send.
    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      fetch(stack.url + path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });
    for (const body of ['{"card_id": 1,', '"just a string"', '\u0000\u0019']) {
      const res = await post('/alerts', body, { Authorization: `Bearer ${key}` });
      assert.equal(res.status, 422, body);
      assert.deepEqual(((await res.json()) as { detail: unknown[] }).detail, [
        { loc: ['body'], msg: 'the body is not valid JSON (an object or an array)', type: 'value_error.jsondecode' },
      ]);
    }
    // Registration and login answer invalid bodies with 400 {detail}, as the spec says.
    const login = await post('/auth/login', '{"username":');
    assert.equal(login.status, 400);
    assert.deepEqual(await login.json(), { detail: 'the body is not valid JSON (an object or an array)' });
  });

  it('answers unknown paths with 404 {detail} and wrong methods with 405 {detail}', async () => {
    const res = await stack.get('/api/v2/nothing-here');
    assert.equal(res.status, 404);
    assert.deepEqual(Object.keys((await res.json()) as object), ['detail']);
    const post = await fetch(`${stack.url}/api/v2/games`, { method: 'POST', body: '{}' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'HEAD, GET');
    assert.equal(typeof ((await post.json()) as { detail: unknown }).detail, 'string');
    // The most specific path decides: /alerts/digest-now is the digest route, not /alerts/{alert_id}.
    const options = await fetch(`${stack.url}/alerts/digest-now`, { method: 'OPTIONS' });
    assert.equal(options.status, 204);
    assert.equal(options.headers.get('allow'), 'POST');
    const wrong = await fetch(`${stack.url}/alerts/digest-now`, { method: 'DELETE' });
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get('allow'), 'POST');
    assert.equal((await fetch(`${stack.url}/api/keys/by-name?name=x`, { method: 'OPTIONS' })).headers.get('allow'), 'HEAD, GET');
    const read = await fetch(`${stack.url}/alerts/digest-now`);
    assert.deepEqual([read.status, read.headers.get('allow')], [405, 'POST']);
    assert.equal((await fetch(`${stack.url}/alerts/12`, { method: 'DELETE' })).status, 401, 'a numeric id still reaches its route');
    // TRACE (which fetch refuses to send) is a wrong method like any other, not "not implemented".
    const trace = await new Promise<{ status: number; allow: string | undefined; body: string }>((resolve, reject) => {
      const req = http.request(`${stack.url}/api/v2/games`, { method: 'TRACE' }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, allow: res.headers.allow, body }));
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(trace.status, 405);
    assert.equal(trace.allow, 'HEAD, GET');
    assert.deepEqual(JSON.parse(trace.body), { detail: 'Method Not Allowed' });
  });

  it('serves stats whose counters match the stores', async () => {
    const { body } = await stack.json('/api/v2/stats');
    const pg = (
      await stack.stores.pg.pool.query(
        `SELECT (SELECT count(*) FROM cards)::int AS cards, (SELECT count(*) FROM variants)::int AS variants`,
      )
    ).rows[0];
    assert.ok(body.cards >= pg.cards - 5 && body.cards <= pg.cards, 'cached up to 300 s, other tests may add cards');
    assert.ok(body.price_points > 1_000_000);
    assert.ok(body.games >= 4);
    assert.match(body.updated_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });
});

describe('request ids and access log', () => {
  it('echoes a well-formed X-Request-Id, makes one otherwise, and logs the path without the query', async () => {
    const db = createDb(stack.stores.pg.pool);
    const user = await createUser(db, { username: 'logcheck', email: 'logcheck@example.com', password: 'a long password' });
    const { key } = await createKey(db, user, { name: 'log check' });
    const res = await stack.get(`/api/v2/games/pokemon?size=5&api_key=${key}`, { 'X-Request-Id': 'abc12345-trace' });
    assert.equal(res.headers.get('x-request-id'), 'abc12345-trace');
    const fresh = await stack.get('/api/v2/games', { 'X-Request-Id': 'bad id with spaces' });
    assert.match(fresh.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    const line = stack.logLines.map((l) => JSON.parse(l)).find((l) => l.request_id === 'abc12345-trace');
    assert.ok(line);
    assert.equal(line.path, '/api/v2/games/pokemon');
    assert.equal(line.status, 200, "api_key is accepted beside a route's own strict parameters");
    assert.ok(!stack.logLines.some((l) => l.includes(key)), 'keys never reach the log');
    const invalid = await stack.get('/api/v2/games?api_key=holo_notarealkey123', { 'X-Request-Id': 'abc12345-bad' });
    assert.equal(invalid.status, 401, 'an invalid key is refused, even where none is needed');
    assert.ok(!stack.logLines.some((l) => l.includes('holo_notarealkey123')));
  });
});

describe('OpenAPI', () => {
  it('documents every v2 route with its parameters', async () => {
    const { body } = await stack.json('/openapi.json');
    assert.equal(body.openapi, '3.1.0');
    for (const p of [
      '/api/v2/stats',
      '/api/v2/games',
      '/api/v2/games/{slug}',
      '/api/v2/sets/{set_id}',
      '/api/v2/cards',
      '/api/v2/cards/{card_id}',
      '/api/v2/cards/{card_id}/history',
      '/api/health',
    ]) {
      assert.ok(body.paths[p]?.get, p);
    }
    const size = body.paths['/api/v2/sets/{set_id}']!.get!.parameters!.find((x: { name: string }) => x.name === 'size');
    assert.equal(size!.schema!.type, 'integer');
    assert.equal(size!.schema!.maximum, 250);
    assert.ok(body.paths['/api/v2/cards/{card_id}']!.get!.responses['404']);
  });
});

describe('what the document says about bounds (issue 34 §5)', () => {
  it('states the maximum of every integer parameter, so a larger one is a refusal it announces', async () => {
    const { body } = await stack.json('/openapi.json');
    const unbounded: string[] = [];
    for (const [path, ops] of Object.entries(body.paths as Record<string, Record<string, { parameters?: any[] }>>))
      for (const [method, op] of Object.entries(ops))
        for (const p of op.parameters ?? [])
          if (p.schema?.type === 'integer' && p.schema.maximum === undefined && !p.schema.enum)
            unbounded.push(`${method} ${path} ${p.name}`);
    assert.deepEqual(unbounded, []);
    const beyond = await stack.json('/api/notifications/feed?before_id=3246557315178201088');
    assert.ok([401, 422].includes(beyond.status), String(beyond.status));
  });

  it('states the half steps of a grade and the cents of an amount (multipleOf)', async () => {
    const { body } = await stack.json('/openapi.json');
    const schemas = body.components.schemas;
    assert.deepEqual(
      [
        schemas.CreateListing!.properties.grade!.multipleOf,
        schemas.UpdateCollectionEntry!.properties.grade!.anyOf?.[0]?.multipleOf ??
          schemas.UpdateCollectionEntry!.properties.grade!.multipleOf,
      ],
      [0.5, 0.5],
    );
    assert.equal(schemas.PlaceBid!.properties.amount!.multipleOf, 0.01);
  });
});

describe('health', () => {
  it('reports live counters and every store', async () => {
    const first = (await stack.json('/api/health')).body;
    await stack.get('/api/v2/games');
    await stack.get('/api/v2/cards/0');
    const second = (await stack.json('/api/health')).body;
    assert.equal(second.status, 'ok');
    assert.equal(second.requests.total, first.requests.total + 3);
    assert.ok(second.requests.by_status['4xx']! >= 1);
    for (const s of ['postgres', 'clickhouse', 'redis'] as const) assert.equal(second.stores[s].ok, true, s);
  });
});

describe('graceful shutdown', () => {
  it('lets an in-flight request finish while refusing new connections', async () => {
    const card = (await stack.stores.pg.pool.query(`SELECT id FROM cards WHERE external_key = 'pokemontcg:base1-4'`)).rows[0];
    const counters = stack.server.deps.counters;
    const inFlight = fetch(`${stack.url}/api/v2/cards/${card.id}/history?region=global&days=3650`);
    while (counters.inFlight === 0) await new Promise((r) => setImmediate(r));
    const closing = stack.server.close();
    const res = await inFlight;
    assert.equal(res.status, 200);
    assert.ok(((await res.json()) as { points: unknown[] }).points.length > 100);
    await closing;
    await assert.rejects(fetch(`${stack.url}/api/v2/games`));
  });
});
