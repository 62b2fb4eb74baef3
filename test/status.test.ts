// The status page and the operators' live screen: what the checks say about stores, feed
// freshness and queues, how incidents open and resolve, and the event stream that shows both.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountWithKey, type KeyedAccount } from './support/accounts.js';
import { call } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';
import { readSse } from './support/sse.js';
import { createStatusMonitor } from '../api/status/monitor.js';

let stack: Stack;
let admin: KeyedAccount;
before(async () => {
  // A long interval: the test runs the checks itself, so every run is one it can see.
  stack = await startStack({ demo: 'none', env: { HOLO_STATUS_INTERVAL_SECONDS: '3600' } });
  admin = await accountWithKey(stack, 'status-operator', 'free', { admin: true });
});
after(async () => {
  await stack?.close();
});

const pg = (sql: string, params: unknown[] = []) => stack.stores.pg.pool.query(sql, params);
const run = () => stack.server.deps.status.runOnce();

/** The operators' stream. */
const sse = (headers: Record<string, string>) => readSse(`${stack.url}/admin/status/stream`, headers);

describe('status checks', () => {
  it('probes every store and queue, served from memory to anyone', async () => {
    await run();
    const { status, body, headers } = await call(stack, 'GET', '/api/status/checks');
    assert.equal(status, 200);
    assert.equal(headers.get('cache-control'), 'public, max-age=5');
    assert.deepEqual(
      body.checks.map((c: { name: string }) => c.name),
      ['postgres', 'clickhouse', 'redis', 'queue:email', 'queue:webhooks'],
      'no temporal check: ingestion is off in this process; no freshness before any feed ran',
    );
    assert.equal(body.status, 'ok');
    assert.equal(body.interval_s, 3600);
    for (const c of body.checks.slice(0, 3)) assert.ok(c.status === 'ok' && c.latency_ms! >= 0 && c.detail === 'answering', c.name);
    assert.match(body.checks[3]!.detail, /^outbox only: no SMTP server configured/);
  });

  it('grades a source by when its feeds were last checked, and a queue by its oldest waiting item', async () => {
    await pg(`INSERT INTO feed_runs (source, game, last_status, last_checked_at) VALUES
      ('tcgplayer', 'pokemon', 'loaded', now() - interval '2 hours'),
      ('cardmarket', 'pokemon', 'loaded', now() - interval '9 hours'),
      ('cardmarket', 'mtg', 'not-modified', now() - interval '1 hour'),
      ('pricecharting', 'pokemon', 'loaded', now() - interval '30 hours')`);
    const [email] = (
      await pg(`INSERT INTO email_outbox (to_address, kind, subject, body_text, created_at)
                VALUES ('late@example.com', 'digest', 's', 'b', now() - interval '20 minutes') RETURNING id`)
    ).rows;
    const snapshot = await run();
    const by = new Map(snapshot.checks.map((c) => [c.name, c]));
    assert.deepEqual(
      [by.get('freshness:tcgplayer')!.status, by.get('freshness:cardmarket')!.status, by.get('freshness:pricecharting')!.status],
      ['ok', 'degraded', 'down'],
      'the stalest game decides',
    );
    assert.equal(by.get('freshness:cardmarket')!.detail, 'feeds last checked 9 h ago (every 6 h)');
    assert.equal(snapshot.status, 'down', 'the worst check');
    await pg(`DELETE FROM feed_runs`);
    // No SMTP server (the default): the outbox is where e-mail goes, and an e-mail kept there 20
    // minutes degrades nothing.
    const outboxOnly = await run();
    assert.deepEqual(
      [outboxOnly.checks.find((c) => c.name === 'queue:email')!.status, outboxOnly.status],
      ['ok', 'ok'],
      'e-mail without SMTP is not late',
    );
    // With one, the same e-mail is 20 minutes late.
    const withSmtp = createStatusMonitor({ ...stack.server.deps, config: { ...stack.config, smtpUrl: 'smtp://127.0.0.1:2525' } });
    const smtpRun = await withSmtp.runOnce();
    const emailCheck = smtpRun.checks.find((c) => c.name === 'queue:email')!;
    assert.deepEqual([emailCheck.status, emailCheck.detail, smtpRun.status], ['degraded', 'oldest waiting 20 min', 'degraded']);
    await withSmtp.stop();
    await pg(`UPDATE email_outbox SET sent_at = now() WHERE id = $1`, [email.id]);
    assert.equal((await withSmtp.runOnce()).status, 'ok');
  });

  it('records that a feed was checked, whether it loaded or was unchanged upstream', async () => {
    const { recordFeedRun } = await import('../sql/status.js');
    await recordFeedRun(stack.stores.pg.pool, 'tcgplayer', 'pokemon', 'loaded', 10);
    await pg(`UPDATE feed_runs SET last_checked_at = now() - interval '1 day', last_loaded_at = now() - interval '1 day'`);
    await recordFeedRun(stack.stores.pg.pool, 'tcgplayer', 'pokemon', 'not-modified', null);
    const [row] = (
      await pg(
        `SELECT last_status, now() - last_checked_at < interval '1 minute' AS fresh, now() - last_loaded_at > interval '23 hours' AS kept FROM feed_runs`,
      )
    ).rows;
    assert.deepEqual(row, { last_status: 'not-modified', fresh: true, kept: true });
    await pg(`DELETE FROM feed_runs`);
  });
});

describe('incidents and the operators’ stream', () => {
  it('opens an incident on the second failing run, resolves it on the second ok run, and streams both', async () => {
    const stream = await sse(admin.headers);
    assert.equal(stream.res.status, 200);
    assert.match(stream.res.headers.get('content-type')!, /^text\/event-stream/);
    await stream.waitFor('the current checks at once', (e) => e[0]?.event === 'checks');

    await pg(
      `INSERT INTO feed_runs (source, game, last_status, last_checked_at) VALUES ('cardmarket', 'pokemon', 'loaded', now() - interval '20 hours')`,
    );
    const first = await run();
    assert.equal((await call(stack, 'GET', '/api/status/incidents?status=open')).body.total, 0, 'one failing run opens nothing');
    await run();
    const open = (await call(stack, 'GET', '/api/status/incidents?status=open')).body;
    assert.equal(open.total, 1);
    const incident = open.items[0];
    assert.deepEqual(
      [incident!.check, incident!.title, incident!.severity, incident!.status, incident!.opened_at, incident!.resolved_at],
      ['freshness:cardmarket', 'Prices from cardmarket down', 'down', 'open', first.checked_at!.slice(0, 19) + 'Z', null],
    );
    await stream.waitFor('the opened incident', (e) => e.some((x) => x.event === 'incident' && x.data.status === 'open'));
    await run();
    assert.equal((await call(stack, 'GET', '/api/status/incidents')).body.total, 1, 'still the same incident');

    await pg(`UPDATE feed_runs SET last_checked_at = now()`);
    const recovered = await run();
    await run();
    const resolved = (await call(stack, 'GET', `/api/status/incidents?status=resolved&limit=1`)).body.items[0];
    assert.deepEqual(
      [resolved!.id, resolved!.status, resolved!.resolved_at],
      [incident!.id, 'resolved', recovered.checked_at!.slice(0, 19) + 'Z'],
    );
    await stream.waitFor('the resolved incident', (e) => e.some((x) => x.event === 'incident' && x.data.status === 'resolved'));
    const runs = stream.events.filter((e) => e.event === 'checks');
    assert.ok(runs.length >= 6, 'one checks event per run, after the first');
    assert.equal(runs.at(-1)!.data.status, 'ok');
    await stream.close();
    await pg(`DELETE FROM feed_runs`);
  });

  it('lets only admins watch the stream, and refuses bad incident queries', async () => {
    const user = await accountWithKey(stack, 'status-viewer', 'pro');
    assert.equal((await fetch(`${stack.url}/admin/status/stream`)).status, 401);
    assert.equal((await fetch(`${stack.url}/admin/status/stream`, { headers: user.headers })).status, 403);
    for (const query of ['status=closed', 'limit=0', 'limit=101', 'offset=-1', 'since=today']) {
      const res = await call(stack, 'GET', `/api/status/incidents?${query}`);
      assert.equal(res.status, 422, query);
      assert.equal(res.body.detail[0].loc[0], 'query');
    }
  });

  // Last: it stops this file's stack (one chDB per process, so it cannot start another).
  it('ends open streams when the server stops, so shutdown does not wait on them', async () => {
    const res = await fetch(`${stack.url}/admin/status/stream`, { headers: admin.headers });
    const body = res.text();
    await stack.close();
    stack = undefined as unknown as Stack;
    // Ended by the server, not cut: a connection still open when the 10 s grace of in-flight
    // requests runs out is destroyed, and reading its body then fails ("terminated").
    const text = await body;
    assert.match(text, /event: checks/);
    assert.ok(text.endsWith('\n\n'), 'the stream ends on a whole event');
  });
});
