// Hot responses: a repeated card detail is answered from the bytes this instance kept, without
// PostgreSQL, ClickHouse or a Redis read, yet still counted by the rate limiter and logged; ETag and
// If-None-Match work; new prices (a new epoch) end every kept answer. And the cache policy a route
// declares (api/http/cachePolicy.ts): keyed by its parsed input, ended by the epoch, varied by what
// it names.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { announcePricesLanded, pricesEpochKey } from '../sql/stores/priceChannels.js';
import { cacheKeyOf } from '../api/http/cachePolicy.js';
import { defineRoute } from '../api/http/route.js';
import { accountWithKey, type KeyedAccount } from './support/accounts.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
let cardId: number;
let pro: KeyedAccount;
const touched = { pg: 0, ch: 0, redisGet: 0 };

function countCalls<T extends object>(target: T, method: keyof T, counter: keyof typeof touched): void {
  const original = (target[method] as (...args: unknown[]) => unknown).bind(target);
  target[method] = ((...args: unknown[]) => {
    touched[counter]++;
    return original(...args);
  }) as T[keyof T];
}

before(async () => {
  stack = await startStack({ demo: 'small' });
  pro = await accountWithKey(stack, 'hotreader', 'pro');
  cardId = (await stack.stores.pg.pool.query<{ id: number }>(`SELECT id FROM cards WHERE external_key = 'pokemontcg:base1-4'`)).rows[0]!.id;
  // Count what reaches the stores (the same objects the API uses), not replace them.
  countCalls(stack.stores.pg.pool, 'query', 'pg');
  countCalls(stack.stores.ch.client, 'query', 'ch');
  countCalls(stack.stores.redis, 'get', 'redisGet');
});
after(async () => {
  await stack?.close();
});

// A conditional GET as HTTP clients send it (fetch adds Cache-Control: no-cache to one, which
// rightly asks for the full answer).
function conditionalGet(path: string, etag: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(stack.url + path, { headers: { 'If-None-Match': etag } }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      })
      .on('error', reject);
  });
}

const reset = () => Object.assign(touched, { pg: 0, ch: 0, redisGet: 0 });

describe('hot responses', () => {
  it('answers a repeated card detail from kept bytes: no store touched, same body, an ETag, 304 on If-None-Match', async () => {
    const url = `/api/v2/cards/${cardId}`;
    const first = await stack.get(url);
    assert.equal(first.status, 200);
    const body = await first.text();
    const etag = first.headers.get('etag');
    assert.match(etag ?? '', /^"[A-Za-z0-9_-]{27}"$/);
    reset();
    for (let i = 0; i < 5; i++) {
      const again = await stack.get(url);
      assert.equal(again.status, 200);
      assert.equal(await again.text(), body);
      assert.equal(again.headers.get('etag'), etag);
      assert.equal(again.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(again.headers.get('cache-control'), 'public, max-age=120');
      assert.ok(again.headers.get('x-ratelimit-remaining'), 'still counted against the caller');
      assert.ok(again.headers.get('x-request-id'));
    }
    assert.deepEqual(touched, { pg: 0, ch: 0, redisGet: 0 }, 'a hot hit reads no store');
    const notModified = await conditionalGet(url, etag!);
    assert.deepEqual(notModified, { status: 304, body: '' });
    assert.equal((await conditionalGet(url, '"other"')).status, 200);
    // The access log has every hit.
    const logged = stack.logLines.filter((l) => l.includes('"msg":"request"') && l.includes(`"path":"${url}"`));
    assert.ok(logged.length >= 8, `${logged.length} access log lines`);
  });

  it('counts every hit against the caller, as any request', async () => {
    const url = `/api/v2/cards/${cardId}?hot=limit`;
    await stack.get(url);
    const counts: { reset: string | null; remaining: number }[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await stack.get(url);
      counts.push({ reset: res.headers.get('x-ratelimit-reset'), remaining: Number(res.headers.get('x-ratelimit-remaining')) });
    }
    // Within one window each hit uses one more call; a new minute starts the count again. Three hits
    // made in well under a minute cross at most one window's end, so at least one pair shares a window.
    let sameWindow = 0;
    for (let i = 1; i < counts.length; i++) {
      const [prev, next] = [counts[i - 1]!, counts[i]!];
      assert.ok(prev.reset && next.reset && Number.isFinite(prev.remaining) && Number.isFinite(next.remaining), JSON.stringify(counts));
      if (next.reset === prev.reset) {
        assert.equal(next.remaining, prev.remaining - 1, JSON.stringify(counts));
        sameWindow++;
      } else assert.ok(Number(next.reset) > Number(prev.reset) && next.remaining > prev.remaining, JSON.stringify(counts));
    }
    assert.ok(sameWindow >= 1, JSON.stringify(counts));
  });

  it("serves a kept answer to a caller with a key too, under the key's own limits", async () => {
    const url = `/api/v2/cards/${cardId}`;
    const anonymous = await stack.get(url);
    const keyed = await stack.get(url, { Authorization: `Bearer ${pro.key}` });
    assert.equal(keyed.status, 200);
    assert.equal(await keyed.text(), await anonymous.text());
    assert.equal(keyed.headers.get('etag'), anonymous.headers.get('etag'));
    assert.notEqual(keyed.headers.get('x-ratelimit-limit'), anonymous.headers.get('x-ratelimit-limit'));
    assert.equal((await stack.get(url, { Authorization: 'Bearer holo_not_a_key' })).status, 401, 'credentials are checked on a hit');
  });

  it('ends with new prices: the next answer is computed again', async () => {
    const url = `/api/v2/cards/${cardId}?hot=epoch`;
    await stack.get(url);
    const before = (await stack.get(url)).headers.get('etag');
    reset();
    await announcePricesLanded(stack.stores.redis, stack.config.redisPrefix);
    await new Promise((r) => setTimeout(r, 50));
    const after = await stack.get(url);
    assert.equal(after.status, 200);
    assert.ok(touched.redisGet + touched.pg > 0, 'computed again under the new epoch');
    assert.equal(after.headers.get('etag'), before, 'the same prices give the same bytes');
  });

  it('keeps only successful answers of hot routes', async () => {
    reset();
    for (let i = 0; i < 2; i++) assert.equal((await stack.get('/api/v2/cards/2147483647')).status, 404);
    assert.ok(touched.pg >= 2, 'a 404 is looked up every time');
    const doc = (await stack.json('/openapi.json')).body;
    assert.ok(doc.paths['/api/v2/cards/{card_id}']!.get!.responses['304']);
  });
});

describe('route cache policy', () => {
  const renameCard = (id: number, name: string) => stack.stores.pg.pool.query('UPDATE cards SET name = $2 WHERE id = $1', [id, name]);
  const newEpoch = async () => {
    await announcePricesLanded(stack.stores.redis, stack.config.redisPrefix);
    await new Promise((r) => setTimeout(r, 50));
  };
  type Top = { items: { id: number; name: string; tcg_slug: string }[] };
  const topCards = async (search: string) => {
    const res = await stack.get(`/cards/top${search}`);
    assert.equal(res.status, 200, search);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=120', search);
    return (await res.json()) as Top;
  };

  it('answers from the cache until the prices epoch moves, one entry for every spelling of the same parsed query', async () => {
    await newEpoch();
    const slug = (await topCards('?limit=5')).items[0]!.tcg_slug;
    const first = await topCards(`?limit=5&tcg_slug=${slug}`);
    const top = first.items[0]!;
    try {
      await renameCard(top.id, 'Renamed in PostgreSQL');
      // The same URL, and URLs the schema reads the same (order, leading zero, 5.0, an api_key
      // the schema does not parse), are answered from the entry the first call made.
      for (const search of [`?limit=5&tcg_slug=${slug}`, `?tcg_slug=${slug}&limit=05`, `?limit=5.0&tcg_slug=${slug}`]) {
        assert.deepEqual(await topCards(search), first, search);
      }
      // What the schema parses differently is another entry, computed now.
      assert.equal((await topCards(`?limit=4&tcg_slug=${slug}`)).items[0]!.name, 'Renamed in PostgreSQL');
      // The Redis entry lives the route's max-age under the current epoch.
      const epoch = (await stack.stores.redis.get(pricesEpochKey(stack.config.redisPrefix)))!;
      const key = cacheKeyOf({ method: 'get', path: '/cards/top' }, { params: {}, query: { limit: 5, tcg_slug: slug }, vary: {} });
      const ttl = await stack.stores.redis.ttl(`${stack.config.redisPrefix}:cache:${epoch}:${key}`);
      assert.ok(ttl > 100 && ttl <= 120, `TTL ${ttl}`);
      await newEpoch();
      assert.equal((await topCards(`?tcg_slug=${slug}&limit=05`)).items[0]!.name, 'Renamed in PostgreSQL', 'a new epoch ends the entry');
    } finally {
      await renameCard(top.id, top.name);
      await newEpoch();
    }
  });

  it("varies by what the policy names: the compat API's card links carry the caller's origin, each origin its own entry", async () => {
    // Node's fetch will not set Host: a raw request does.
    const asHost = (host: string) =>
      new Promise<{ status: number; data: { name: string; images: { small: string } } }>((resolve, reject) => {
        const u = new URL(stack.url);
        http
          .get({ host: u.hostname, port: u.port, path: '/compat/pokemontcg/v2/cards/base1-4', headers: { Host: host } }, (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode!, data: (JSON.parse(body) as { data: never }).data }));
          })
          .on('error', reject);
      });
    await newEpoch();
    const first = await asHost('a.example');
    assert.equal(first.status, 200);
    assert.match(first.data.images.small, /^http:\/\/a\.example\/static\//);
    try {
      await renameCard(cardId, 'Renamed in PostgreSQL');
      const again = await asHost('a.example');
      assert.deepEqual(again.data, first.data, 'the same origin: the entry the first call made');
      const other = await asHost('b.example');
      assert.match(other.data.images.small, /^http:\/\/b\.example\/static\//);
      assert.equal(other.data.name, 'Renamed in PostgreSQL', 'another origin: its own entry, computed now');
    } finally {
      await renameCard(cardId, first.data.name);
      await newEpoch();
    }
  });

  it('refuses a policy it could not keep when the route is declared', () => {
    const route = { summary: 'x', tags: [], response: z.object({}), handler: async () => ({}) };
    assert.throws(() => defineRoute({ ...route, method: 'post', path: '/x', maxAge: 60, cache: true }), /only a GET answer is cached/);
    assert.throws(() => defineRoute({ ...route, method: 'get', path: '/x', cache: true }), /states its maxAge/);
    assert.throws(
      () => defineRoute({ ...route, method: 'get', path: '/x', maxAge: 60, cache: { hot: true, varyBy: ['origin'] } }),
      /cannot vary by origin/,
    );
  });
});
