// Store plumbing: configuration errors, migrations (once each, re-runnable, cluster DDL), the Redis
// interface on both implementations, and the catalogue readers against the full upstream files.
import { silentLogger } from '../sql/runtime/log.js';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../schemas/config.js';
import { migrateClickHouse, migratePostgres, renderClickHouseDdl, splitStatements } from '../sql/stores/migrate.js';
import { repoRoot } from '../sql/runtime/paths.js';
import { openPayments } from '../sql/external/stripe.js';
import { inProcessRedis, openRedis, type RedisStore } from '../sql/stores/redis.js';
import { readFleshAndBloodCatalogue } from '../ingest/catalogue/fleshAndBlood.js';
import { readPokemonCatalogue } from '../ingest/catalogue/pokemon.js';
import { startStack, type Stack } from './support/stack.js';

const silent = silentLogger();
const sharedData = path.resolve(repoRoot, '..', 'shared', 'data');

describe('configuration', () => {
  it('stops with a message naming each bad variable', () => {
    assert.throws(
      () => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.match(err.message, /PORT/);
        assert.match(err.message, /DATABASE_URL/);
        return true;
      },
    );
    assert.throws(() => loadConfig({ HOLO_DEMO: 'everything' }), /HOLO_DEMO/);
    assert.throws(() => loadConfig({ STRIPE_SECRET_KEY: 'pk_test_publishable' }), /STRIPE_SECRET_KEY: must be a Stripe secret/);
    // A Stripe account whose payments could never be confirmed would take money and lose track of it.
    assert.throws(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc123' }), /STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY/);
    assert.equal(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc' }).stripeSecretKey, 'sk_test_abc123');
  });

  it('treats empty variables as unset and applies defaults', () => {
    const c = loadConfig({ DATABASE_URL: '', PORT: '' });
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.port, 8000);
  });
});

describe('migrations', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ demo: 'none' });
  });
  after(async () => {
    await stack?.close();
  });

  it('apply each file once; running again is harmless', async () => {
    assert.deepEqual(await migratePostgres(stack.stores.pg, silent), []);
    assert.deepEqual(await migrateClickHouse(stack.stores.ch, silent), []);
    const ledger = (await stack.stores.pg.pool.query('SELECT name FROM schema_migrations ORDER BY name')).rows.map((r) => r.name);
    assert.deepEqual(
      ledger,
      fs
        .readdirSync(path.join(repoRoot, 'sql', 'postgres'))
        .filter((f) => f.endsWith('.sql'))
        .sort(),
    );
    assert.ok(ledger.length >= 2);
    const rs = await stack.stores.ch.client.query({
      query: 'SELECT name FROM holo.schema_migrations FINAL ORDER BY name',
      format: 'JSONEachRow',
    });
    assert.deepEqual(
      (await rs.json<{ name: string }>()).map((r) => r.name),
      fs
        .readdirSync(path.join(repoRoot, 'sql', 'clickhouse'))
        .filter((f) => f.endsWith('.sql'))
        .sort(),
    );
  });

  it('keep the materialised view and its target table in step', async () => {
    const cols = async (table: string) =>
      await (
        await stack.stores.ch.client.query({
          query: `SELECT name, type FROM system.columns WHERE database = 'holo' AND table = {t:String} ORDER BY position`,
          query_params: { t: table },
          format: 'JSONEachRow',
        })
      ).json<{ name: string; type: string }>();
    const target = await cols('price_latest');
    const view = await cols('price_latest_mv');
    assert.ok(target.length > 0, 'the target table has columns');
    assert.deepEqual(view, target);
  });

  it('render Replicated engines ON CLUSTER for a cluster, and plain engines otherwise', () => {
    const ddl = 'CREATE TABLE IF NOT EXISTS holo.t {{ON_CLUSTER}} (a UInt8) ENGINE = {{REPLICATED}}ReplacingMergeTree ORDER BY a;';
    assert.equal(
      renderClickHouseDdl(ddl, undefined),
      'CREATE TABLE IF NOT EXISTS holo.t  (a UInt8) ENGINE = ReplacingMergeTree ORDER BY a;',
    );
    assert.equal(
      renderClickHouseDdl(ddl, 'holo_cluster'),
      'CREATE TABLE IF NOT EXISTS holo.t ON CLUSTER holo_cluster (a UInt8) ENGINE = ReplicatedReplacingMergeTree ORDER BY a;',
    );
    assert.equal(splitStatements('-- c\nSELECT 1;\nSELECT 2;\n').length, 2);
  });
});

function redisContract(name: string, make: () => Promise<RedisStore>) {
  describe(`Redis interface: ${name}`, () => {
    let redis: RedisStore;
    const k = (s: string) => `test:${process.pid}:${Date.now()}:${s}`;
    before(async () => {
      redis = await make();
    });
    after(async () => {
      await redis.close();
    });
    it('stores, expires and deletes values', async () => {
      const key = k('v');
      await redis.set(key, 'hello', 1);
      assert.equal(await redis.get(key), 'hello');
      await new Promise((r) => setTimeout(r, 1100));
      assert.equal(await redis.get(key), null);
      await redis.set(key, 'again');
      assert.equal(await redis.del(key), 1);
      assert.equal(await redis.get(key), null);
    });
    it('reports time to live as Redis does', async () => {
      const key = k('t');
      assert.equal(await redis.ttl(key), -2, 'no key');
      await redis.incr(key, 90);
      await redis.incr(key, 5);
      const left = await redis.ttl(key);
      assert.ok(left > 85 && left <= 90, `a new key's TTL is kept by later increments: ${left}`);
      await redis.set(key, 'forever');
      assert.equal(await redis.ttl(key), -1);
    });
    it('increments atomically under concurrency', async () => {
      const key = k('n');
      const results = await Promise.all(Array.from({ length: 200 }, () => redis.incr(key, 60)));
      assert.deepEqual(
        [...results].sort((a, b) => a - b),
        Array.from({ length: 200 }, (_, i) => i + 1),
      );
    });
    it('decrements only a key that exists, keeping its time to live', async () => {
      const key = k('d');
      assert.equal(await redis.decrExisting(key), 0);
      assert.equal(await redis.get(key), null, 'a missing key stays missing');
      await redis.incrMany([{ key, ttlSeconds: 60 }]);
      await redis.incr(key, 60);
      assert.equal(await redis.decrExisting(key), 1);
      const left = await redis.ttl(key);
      assert.ok(left > 55 && left <= 60, `TTL kept: ${left}`);
    });
    it('increments several keys in one step, each with its own time to live, atomically under concurrency', async () => {
      const [a, b] = [k('ma'), k('mb')];
      const rounds = await Promise.all(
        Array.from({ length: 50 }, () =>
          redis.incrMany([
            { key: a, ttlSeconds: 60 },
            { key: b, ttlSeconds: 120 },
          ]),
        ),
      );
      // Every round sees both counters at the same step: no round is split by another.
      assert.deepEqual(
        rounds.map(([x, y]) => x === y).filter((same) => !same),
        [],
      );
      assert.deepEqual(
        rounds.map(([x]) => x!).sort((p, q) => p - q),
        Array.from({ length: 50 }, (_, i) => i + 1),
      );
      assert.ok((await redis.ttl(a)) > 55 && (await redis.ttl(a)) <= 60);
      assert.ok((await redis.ttl(b)) > 115 && (await redis.ttl(b)) <= 120);
      assert.equal(await redis.ping(), true);
    });
    it('delivers published messages to subscribers until they unsubscribe', async () => {
      const channel = k('c');
      const got: string[] = [];
      const unsubscribe = await redis.subscribe(channel, (m) => got.push(m));
      await redis.publish(channel, 'one');
      for (let i = 0; i < 50 && got.length < 1; i++) await new Promise((r) => setTimeout(r, 20));
      await unsubscribe();
      await redis.publish(channel, 'two');
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(got, ['one']);
    });
  });
}

redisContract('in-process stand-in', async () => inProcessRedis());
if (process.env.REDIS_URL) {
  redisContract('Redis server', () => openRedis(loadConfig({ REDIS_URL: process.env.REDIS_URL }), silent));
}

describe('catalogue readers on the full upstream files', () => {
  it('read every Pokémon set and card, with finishes from printing conventions', async () => {
    const batch = await readPokemonCatalogue(path.join(sharedData, 'pokemon-tcg-data'));
    assert.equal(batch.sets.length, 170);
    assert.equal(batch.cards.length, 19783);
    const charizard = batch.cards.find((c) => c.externalKey === 'pokemontcg:base1-4')!;
    assert.deepEqual(
      charizard.printings.map((p) => p.printRun),
      ['1st-edition', 'shadowless', 'unlimited'],
    );
    assert.deepEqual(
      charizard.printings[0]!.variants.map((v) => v.finish),
      ['holofoil'],
    );
    const modernCommon = batch.cards.find((c) => c.externalKey === 'pokemontcg:sv1-1')!;
    assert.deepEqual(
      modernCommon.printings[0]!.variants.map((v) => v.finish),
      ['normal', 'reverse-holofoil'],
    );
    const keys = new Set(batch.cards.flatMap((c) => c.printings.flatMap((p) => p.variants.map((v) => v.externalKey))));
    assert.equal(keys.size, batch.cards.flatMap((c) => c.printings.flatMap((p) => p.variants)).length, 'variant keys are unique');
  });

  it('read Flesh and Blood printings with their TCGplayer ids', async () => {
    const batch = await readFleshAndBloodCatalogue(path.join(sharedData, 'flesh-and-blood'));
    assert.equal(batch.cards.length, 6879);
    assert.equal(batch.cards.flatMap((c) => c.printings.flatMap((p) => p.variants)).length, 13058);
    const refs = batch.cards.flatMap((c) => c.printings.flatMap((p) => p.crossRefs));
    assert.ok(refs.length > 6000);
    assert.ok(refs.every((r) => r.key === 'us_marketplace_product_id' && /^\d+$/.test(r.value)));
  });
});

describe('payments on the embedded default', () => {
  it('two stripe-mocks on one machine both answer (each on ports of its own, HTTPS included)', async () => {
    const opened = await Promise.all(
      ['a', 'b'].map(async () => {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'holo-payments-'));
        return { dataDir, payments: await openPayments(loadConfig({ NODE_ENV: 'test', HOLO_DATA_DIR: dataDir }), silent) };
      }),
    );
    try {
      // One after the other: the second starts while the first holds its ports.
      for (const { payments } of opened) assert.equal(payments.kind, 'stripe-mock');
      const first = await (await opened[0]!.payments.client()).balance.retrieve();
      const second = await (await opened[1]!.payments.client()).balance.retrieve();
      assert.equal(first.object, 'balance');
      assert.equal(second.object, 'balance');
      assert.equal((await (await opened[0]!.payments.client()).balance.retrieve()).object, 'balance', 'the first still answers');
    } finally {
      for (const { payments, dataDir } of opened) {
        await payments.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
  });
});
