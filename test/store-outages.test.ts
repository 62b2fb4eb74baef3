// 503 holo_data_unavailable when a store really goes away: the PostgreSQL server process is
// stopped (and started again: the API recovers by itself), and the ClickHouse engine is closed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startStack, type Stack } from './support/stack.js';
import { pgTransaction } from '../sql/stores/db.js';

let stack: Stack;
let cardId: number;
before(async () => {
  // This file owns its PostgreSQL server, so stopping it affects no other test.
  stack = await startStack({ embeddedPostgres: true });
  cardId = (await stack.stores.pg.pool.query(`SELECT id FROM cards WHERE external_key = 'pokemontcg:base1-4'`)).rows[0].id;
});
after(async () => {
  await stack?.close();
});

describe('store outages', () => {
  it('answers 503 holo_data_unavailable while PostgreSQL is down, and recovers when it is back', async () => {
    assert.equal((await stack.json(`/api/v2/sets/1?size=1&page=2`)).status, 200);
    // A transaction waiting between two statements when the server goes (as ingestion's do while
    // ClickHouse works): the process lives on and the transaction's next statement fails. The
    // server's goodbye on a checked-out connection was an 'error' nobody heard, which crashed it.
    let entered!: (connection: { closed: Promise<unknown> }) => void;
    let proceed!: () => void;
    const inside = new Promise<{ closed: Promise<unknown> }>((resolve) => (entered = resolve));
    const waiting = new Promise<void>((resolve) => (proceed = resolve));
    const transaction = pgTransaction(stack.stores.pg.pool, async (client) => {
      await client.query('SELECT 1');
      entered({ closed: new Promise((closed) => client.once('end', closed)) });
      await waiting;
      await client.query('SELECT 2');
    });
    const connection = await inside;
    await stack.stores.pg.embedded!.stop();
    // The goodbye has been read (and, unheard, would have crashed the process) before the next statement.
    await connection.closed;
    proceed();
    await assert.rejects(transaction);
    for (const path of [
      `/api/v2/cards/${cardId}/history?days=30`,
      '/api/v2/games/pokemon',
      `/api/v2/sets/1?size=2`,
      '/api/v2/cards?game=pokemon&name=Charizard',
    ]) {
      const res = await stack.get(path);
      assert.equal(res.status, 503, path);
      assert.deepEqual(await res.json(), { detail: 'holo_data_unavailable' });
      assert.ok(res.headers.get('retry-after'));
    }
    const health = (await stack.json('/api/health')).body;
    assert.equal(health.status, 'degraded');
    assert.equal(health.stores.postgres.ok, false);
    assert.equal(health.stores.clickhouse.ok, true);
    // The status monitor sees it twice: an incident, which PostgreSQL cannot take yet.
    const monitor = stack.server.deps.status;
    const outage = await monitor.runOnce();
    await monitor.runOnce();
    const pgCheck = (await stack.json('/api/status/checks')).body.checks.find((c: { name: string }) => c.name === 'postgres');
    assert.deepEqual([pgCheck!.status, pgCheck!.detail, pgCheck!.since], ['down', 'unreachable', outage.checked_at]);

    await stack.stores.pg.embedded!.start();
    const back = await stack.json('/api/v2/games/pokemon');
    assert.equal(back.status, 200);
    assert.equal((await stack.json('/api/health')).body.status, 'ok');
    // Back and ok twice: the incident is written with the outage's own times, and resolved.
    const recovered = await monitor.runOnce();
    await monitor.runOnce();
    const incidents = (await stack.json('/api/status/incidents?status=resolved')).body.items;
    const incident = incidents.find((i: { check: string }) => i.check === 'postgres');
    assert.ok(incident, JSON.stringify(incidents));
    assert.deepEqual(
      [incident.title, incident.severity, incident.opened_at, incident.resolved_at],
      ['PostgreSQL down', 'down', outage.checked_at!.slice(0, 19) + 'Z', recovered.checked_at!.slice(0, 19) + 'Z'],
    );
  });

  it('answers 503 for ClickHouse-backed reads once ClickHouse is gone, while PostgreSQL-backed reads go on', async () => {
    assert.equal((await stack.json(`/api/v2/cards/${cardId}/history?days=7`)).status, 200);
    await stack.stores.ch.close();
    const history = await stack.json(`/api/v2/cards/${cardId}/history?days=30`);
    assert.equal(history.status, 503);
    assert.deepEqual(history.body, { detail: 'holo_data_unavailable' });
    // Card detail reads the latest prices materialised in PostgreSQL: still served.
    assert.equal((await stack.json(`/api/v2/cards/${cardId}`)).status, 200);
    const health = (await stack.json('/api/health')).body;
    assert.equal(health.stores.clickhouse.ok, false);
  });
});
