// The WebSocket price stream on one API instance: who may connect, subscriptions, delivery after
// a real ingestion run, heartbeats, malformed input, slow consumers and revoked keys.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startFeedServer, type FeedServer } from '../ingest/demoMarket/feedServer.js';
import { ingestFeed } from '../ingest/pipeline.js';
import { priceUpdatesChannel } from '../sql/stores/priceChannels.js';
import { CLOSE, createPriceStream } from '../api/stream/priceStream.js';
import { accountWithKey, type KeyedAccount } from './support/accounts.js';
import { startStack, type Stack } from './support/stack.js';
import { StreamClient } from './support/ws.js';

let stack: Stack;
let feeds: FeedServer;
let starter: KeyedAccount;
let free: KeyedAccount;
const PING_SECONDS = 0.3;
const today = new Date().toISOString().slice(0, 10);
const streamUrl = (key?: string) =>
  `${stack.url.replace('http', 'ws')}/api/v1/stream${key === undefined ? '' : `?api_key=${encodeURIComponent(key)}`}`;

before(async () => {
  stack = await startStack({ demo: 'small', env: { HOLO_WS_PING_SECONDS: String(PING_SECONDS), HOLO_WS_MAX_CONNECTIONS_PER_KEY: '6' } });
  feeds = await startFeedServer(stack.stores.pg.url, stack.config.feedsPort, { throttleEvery: 0 });
  starter = await accountWithKey(stack, 'streamer', 'starter');
  free = await accountWithKey(stack, 'freeloader', 'free');
});
after(async () => {
  await feeds?.close();
  await stack?.close();
});

/** A connection that answers every ping, as a well-behaved client does. */
async function polite(key: string): Promise<StreamClient> {
  const c = await StreamClient.connect(streamUrl(key));
  c.socket.on('message', (data) => {
    if (JSON.parse((data as Buffer).toString()).type === 'ping') c.send({ type: 'pong' });
  });
  return c;
}

describe('who may connect', () => {
  it('closes at once with a code and reason for a missing, invalid or Free-tier key', async () => {
    const cases: [string | undefined, number, RegExp][] = [
      [undefined, CLOSE.unauthorized, /missing api_key/],
      ['holo_not-a-real-key', CLOSE.unauthorized, /invalid or revoked API key/],
      [free.key, CLOSE.forbidden, /Starter tier or higher; this key is Free/],
    ];
    for (const [key, code, reason] of cases) {
      const c = await StreamClient.connect(streamUrl(key));
      const closed = await c.closed;
      assert.equal(closed.code, code, String(key));
      assert.match(closed.reason, reason);
    }
  });

  it('answers a plain GET with 426 and a non-stream upgrade with 404', async () => {
    const res = await fetch(`${stack.url}/api/v1/stream`);
    assert.equal(res.status, 426);
    await assert.rejects(StreamClient.connect(`${stack.url.replace('http', 'ws')}/api/v1/elsewhere?api_key=${starter.key}`), /404/);
  });

  it('limits open streams per key', async () => {
    const open = await Promise.all(Array.from({ length: 6 }, () => polite(starter.key)));
    const extra = await StreamClient.connect(streamUrl(starter.key));
    assert.equal((await extra.closed).code, CLOSE.tooManyConnections);
    for (const c of open) c.close();
    await Promise.all(open.map((c) => c.closed));
  });
});

describe('subscriptions and delivery', () => {
  it('a price change lands: subscribed sockets get price_update for their cards only, an unsubscribed one gets nothing', async () => {
    const { rows } = await stack.stores.pg.pool.query<{ id: number }>(
      `SELECT c.id FROM cards c JOIN games g ON g.id = c.game_id WHERE g.slug = 'pokemon' AND c.external_key LIKE 'pokemontcg:%' ORDER BY c.id LIMIT 40`,
    );
    const cards = rows.map((r) => r.id);
    const watcher = await polite(starter.key);
    const quitter = await polite(starter.key);
    const bystander = await polite(starter.key);
    watcher.send({ type: 'subscribe', topics: cards.map((id) => `card:${id}`) });
    quitter.send({ type: 'subscribe', topics: cards.map((id) => `card:${id}`) });
    assert.equal((await watcher.waitFor((m) => m.type === 'subscribed')).topics.length, cards.length);
    await quitter.waitFor((m) => m.type === 'subscribed' && m.topics.length === cards.length);
    quitter.send({ type: 'unsubscribe', topics: cards.map((id) => `card:${id}`) });
    await quitter.waitFor((m) => m.type === 'subscribed' && m.topics.length === 0);

    const summary = await ingestFeed(stack.ingestDeps(), { source: 'pokemontcg', game: 'pokemon', asOf: today });
    assert.ok(summary.loaded > 0);
    const first = await watcher.waitFor((m) => m.type === 'price_update');
    // Give every update of the run time to arrive, then compare what each socket got.
    await new Promise((r) => setTimeout(r, 300));
    const updates = watcher.messages.filter((m) => m.type === 'price_update');
    assert.ok(updates.length >= 1);
    for (const u of updates) {
      assert.ok(cards.includes(u.data.card_id), `card ${u.data.card_id} was subscribed`);
      assert.equal(u.data.currency, 'USD');
      assert.ok(u.data.market_price > 0);
      assert.deepEqual(Object.keys(u.data).sort(), ['card_id', 'currency', 'market_price']);
    }
    // The price delivered is one the run just stored for that card.
    const stored = await stack.stores.pg.pool.query<{ amount: string }>(
      `SELECT l.amount FROM variant_prices_latest l JOIN variants v ON v.id = l.variant_id JOIN printings p ON p.id = v.printing_id
       WHERE p.card_id = $1 AND l.as_of = $2 AND l.price_type = 'market'`,
      [first.data.card_id, today],
    );
    assert.ok(
      stored.rows.some((r) => Number(r.amount) === first.data.market_price),
      `${first.data.market_price} is among ${stored.rows.map((r) => r.amount).join(', ')}`,
    );
    assert.equal(quitter.messages.filter((m) => m.type === 'price_update').length, 0);
    assert.equal(bystander.messages.filter((m) => m.type === 'price_update').length, 0);
    for (const c of [watcher, quitter, bystander]) c.close();
  });

  it('a load whose announcement failed is announced by its retry, not skipped as not-modified', async () => {
    const feed = { source: 'pricecharting', game: 'pokemon', asOf: today };
    const failing = {
      ...stack.ingestDeps(),
      afterPublish: async () => {
        throw new Error('alerts and webhooks unavailable');
      },
    };
    await assert.rejects(ingestFeed(failing, feed), /alerts and webhooks unavailable/);
    let announced: number | null = null;
    const retry = await ingestFeed(
      {
        ...stack.ingestDeps(),
        afterPublish: async (_batch, updates) => {
          announced = updates.length;
        },
      },
      feed,
    );
    assert.equal(retry.status, 'loaded');
    assert.ok(retry.loaded > 0);
    assert.notEqual(announced, null, 'the retry ran what follows the announcement');
    // Only a run that went all the way through lets the next one ask with its validators.
    const third = await ingestFeed(stack.ingestDeps(), feed);
    assert.equal(third.status, 'not-modified');
  });

  it('answers malformed messages with an error and keeps the connection', async () => {
    const c = await polite(starter.key);
    const cases: [unknown, RegExp][] = [
      ['not json', /not JSON/],
      [{ type: 'dance' }, /type/],
      [{ type: 'subscribe', topics: ['set:12'] }, /topics look like 'card:<card_id>'/],
      [{ type: 'subscribe', topics: [] }, /topics/],
      [{ type: 'subscribe', topics: 'card:1' }, /topics/],
      [[1, 2, 3], /./],
    ];
    for (const [message, error] of cases) {
      const from = c.messages.length;
      c.send(message);
      const reply = await c.waitFor((m) => m.type === 'error', 5_000, from);
      assert.match(reply.error, error, JSON.stringify(message));
    }
    c.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    await c.waitFor((m) => m.type === 'error' && /JSON text/.test(m.error));
    const tooMany = Array.from({ length: 501 }, (_, i) => `card:${i + 1}`);
    const from = c.messages.length;
    c.send({ type: 'subscribe', topics: tooMany });
    assert.match((await c.waitFor((m) => m.type === 'error', 5_000, from)).error, /500/);
    c.send({ type: 'subscribe', topics: ['card:7'] });
    assert.deepEqual((await c.waitFor((m) => m.type === 'subscribed')).topics, ['card:7']);
    // Over the size limit: the connection is closed with 1009, the server carries on.
    c.send({ type: 'subscribe', topics: ['card:1'], padding: 'x'.repeat(20_000) });
    assert.equal((await c.closed).code, CLOSE.tooBig);
    assert.equal((await fetch(`${stack.url}/api/health`)).status, 200);
  });
});

describe('liveness and bounds', () => {
  it('pings; a client that answers stays, one that never answers is reaped', async () => {
    const good = await polite(starter.key);
    const silent = await StreamClient.connect(streamUrl(starter.key));
    const closed = await silent.closed;
    assert.equal(closed.code, CLOSE.heartbeat);
    assert.ok(silent.messages.some((m) => m.type === 'ping'));
    assert.equal(good.socket.readyState, good.socket.OPEN, 'the polite client is still connected');
    assert.ok(good.messages.filter((m) => m.type === 'ping').length >= 2);
    good.close();
  });

  it('drops a consumer that stops reading instead of buffering without bound', async () => {
    // A paused reader cannot answer pings either, and this file's heartbeat would reap it first on a
    // busy machine. So this runs on a second stream, on the same stores, whose heartbeat never comes.
    const { deps } = stack.server;
    const stream = await createPriceStream(
      { db: deps.db, redis: stack.stores.redis, redisPrefix: stack.config.redisPrefix, keyCache: deps.keyCache, log: deps.log },
      { pingIntervalMs: 3_600_000, maxConnectionsPerKey: 6 },
    );
    const server = http.createServer((_req, res) => res.writeHead(404).end());
    stream.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const slow = await StreamClient.connect(
        `ws://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/stream?api_key=${encodeURIComponent(starter.key)}`,
      );
      slow.send({ type: 'subscribe', topics: ['card:1'] });
      await slow.waitFor((m) => m.type === 'subscribed');
      // Stop reading from the socket: the server's writes pile up.
      (slow.socket as unknown as { _socket: { pause(): void } })._socket.pause();
      const burst = JSON.stringify({
        type: 'price_updates',
        data: Array.from({ length: 500 }, () => ({ card_id: 1, market_price: 12.34, currency: 'USD' })),
      });
      // The kernel absorbs what the paused reader does not take before the server's own queue grows;
      // loopback buffers autotune up to tens of MB (tcp_rmem's maximum differs between machines), so
      // publish until the server drops the reader, bounded by a generous volume rather than a count.
      // Each burst waits for the server to take the previous one: a subscriber lagging 32 MB behind
      // would be cut off by Redis itself (client-output-buffer-limit pubsub), which is not under test.
      const volumeBound = 512 * 1024 * 1024;
      for (let sent = 0; sent < volumeBound && stream.stats().dropped_slow === 0; sent += burst.length) {
        const deliveredBefore = stream.stats().delivered;
        await stack.stores.redis.publish(priceUpdatesChannel(stack.config.redisPrefix), burst);
        const deadline = Date.now() + 10_000;
        while (stream.stats().delivered === deliveredBefore && stream.stats().dropped_slow === 0) {
          assert.ok(Date.now() < deadline, `the stream stopped taking updates: ${JSON.stringify(stream.stats())}`);
          await new Promise((r) => setTimeout(r, 1));
        }
      }
      assert.equal(stream.stats().dropped_slow, 1);
      (slow.socket as unknown as { _socket: { resume(): void } })._socket.resume();
      assert.equal((await slow.closed).code, CLOSE.slowConsumer);
      assert.equal(stream.stats().connections, 0);
    } finally {
      await stream.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('closes the open streams of a key when it is revoked', async () => {
    const victim = await accountWithKey(stack, 'revokedstreamer', 'pro');
    const c = await polite(victim.key);
    const keys = (await (await fetch(`${stack.url}/api/keys/`, { headers: victim.headers })).json()) as { items: { id: number }[] };
    assert.equal((await fetch(`${stack.url}/api/keys/${keys.items[0]!.id}`, { method: 'DELETE', headers: victim.headers })).status, 200);
    const closed = await c.closed;
    assert.deepEqual([closed.code, closed.reason], [CLOSE.unauthorized, 'API key revoked or suspended']);
  });

  it("keeps a key's streams through a change of limits, and closes them when an admin moves it below Starter", async () => {
    const streamer = await accountWithKey(stack, 'regradedstreamer', 'pro');
    const admin = await accountWithKey(stack, 'streamadmin', 'free', { admin: true });
    const c = await polite(streamer.key);
    const keyId = ((await (await fetch(`${stack.url}/api/developer/key`, { headers: streamer.headers })).json()) as { id: number }).id;
    const patch = async (body: object) =>
      (
        await fetch(`${stack.url}/admin/api-keys/${keyId}`, {
          method: 'PATCH',
          headers: { ...admin.headers, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).status;
    assert.equal(await patch({ rate_limit_per_minute: 50 }), 200);
    c.send({ type: 'subscribe', topics: ['card:7'] });
    await c.waitFor((m) => m.type === 'subscribed' && m.topics.includes('card:7'));
    assert.equal(await patch({ tier: 'free' }), 200);
    const closed = await c.closed;
    assert.deepEqual([closed.code, closed.reason], [CLOSE.forbidden, 'the stream needs the Starter tier or higher; this key is Free']);
  });
});
