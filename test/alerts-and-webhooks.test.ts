// Alerts, notifications and signed webhooks on a real Temporal server: an ingestion run crosses
// an alert, which becomes a notification, an outbox e-mail, a push and a webhook delivery that
// survives a receiver failing twice; endpoints that keep failing are disabled.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@temporalio/client';
import { DIGEST_NOW_PER_HOUR } from '../api/events/digestNow.js';
import { signatureMatches } from '../ingest/events/signing.js';
import { MAX_ENDPOINTS_PER_USER } from '../schemas/events.js';
import { webhookUrlProblem } from '../api/events/webhooks.js';
import { startFeedServer, type FeedServer } from '../ingest/demoMarket/feedServer.js';
import { activityDeps } from '../workflows/activities.js';
import { TASK_QUEUE, workflowIds } from '../workflows/shared.js';
import { accountWithKey, type KeyedAccount } from './support/accounts.js';
import { call } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';
import { TemporalRig } from './support/temporal.js';
import { headerOf, startSmtpReceiver } from './support/smtpReceiver.js';
import { startWebhookReceiver } from './support/webhookReceiver.js';
import { until } from './support/until.js';
import { startWebPushReceiver } from './support/webPushReceiver.js';

const today = new Date().toISOString().slice(0, 10);

let stack: Stack;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let feeds: FeedServer;
let rig: TemporalRig;
let client: Client;
let shop: KeyedAccount;
let cards: number[];
let pushService: Awaited<ReturnType<typeof startWebPushReceiver>>;

before(async () => {
  smtp = await startSmtpReceiver({ user: 'holo-relay', pass: 'relay-secret' });
  pushService = await startWebPushReceiver();
  stack = await startStack({
    demo: 'small',
    env: {
      HOLO_WEBHOOK_RETRY_SECONDS: '0.2',
      HOLO_WEBHOOK_MAX_ATTEMPTS: '4',
      HOLO_WEBHOOK_DISABLE_AFTER: '2',
      HOLO_SMTP_URL: smtp.url,
      HOLO_MAIL_FROM: 'Holo Alerts <alerts@holo.test>',
    },
  });
  feeds = await startFeedServer(stack.stores.pg.url, stack.config.feedsPort, { throttleEvery: 0 });
  rig = await TemporalRig.start(stack, activityDeps(stack.config, stack.stores));
  client = rig.client;
  shop = await accountWithKey(stack, 'cardshop', 'shop_basic');
  // Alert e-mail is opt-in (spec: "if the user opted in").
  const optedIn = await call(stack, 'POST', '/me/notifications', { body: { alert_emails: true }, headers: shop.headers });
  assert.deepEqual(optedIn.body, { ok: true, alert_emails: true, digest_emails: false });
  cards = (
    await stack.stores.pg.pool.query<{ id: number }>(
      `SELECT c.id FROM cards c JOIN games g ON g.id = c.game_id WHERE g.slug = 'pokemon' AND c.external_key LIKE 'pokemontcg:%' ORDER BY c.id LIMIT 3`,
    )
  ).rows.map((r) => r.id);
});
after(async () => {
  await rig?.close();
  await pushService?.close();
  await feeds?.close();
  await stack?.close();
  await smtp?.close();
});

const api = <const Path extends string, const Method extends string = 'GET'>(
  path: Path,
  init: { method?: Method; body?: unknown; headers?: Record<string, string> } = {},
) => call(stack, init.method ?? ('GET' as Method), path, { body: init.body, headers: init.headers ?? shop.headers });

/**
 * One ingestion run of today's pokemontcg feed, through Temporal, as the schedule runs it. The
 * feed's validators are forgotten first, so every run fetches and announces the prices again.
 */
async function ingestRun(suffix: string) {
  await stack.stores.pg.pool.query('DELETE FROM feed_validators');
  return client.workflow.execute('ingestSource', {
    args: [{ source: 'pokemontcg', game: 'pokemon', asOf: today }],
    taskQueue: TASK_QUEUE,
    workflowId: `${workflowIds.ingestSource('pokemontcg', 'pokemon', today)}/${suffix}`,
  });
}

describe('webhook endpoints', () => {
  it('are for Business tiers, validate the URL, and show the secret once', async () => {
    const starter = await accountWithKey(stack, 'hobbyist', 'starter');
    assert.equal((await api('/api/webhooks', { headers: starter.headers })).status, 403);
    for (const url of ['ftp://127.0.0.1/x', 'http://example.com/hook', 'not a url', 'http://user:pw@127.0.0.1/x']) {
      const res = await api('/api/webhooks', { method: 'POST', body: { url } });
      assert.equal(res.status, 422, url);
      assert.deepEqual(res.body.detail[0].loc, ['body', 'url']);
    }
    assert.equal(webhookUrlProblem('http://127.0.0.1:9/x', 'production'), 'must be an https:// URL');
    assert.equal(webhookUrlProblem('https://10.1.2.3/x', 'production'), 'must be a public address');
    assert.equal(webhookUrlProblem('https://hooks.example.com/x', 'production'), null);
    const outOfRange = await api('/api/webhooks', { method: 'POST', body: { url: 'https://hooks.example.com/holo', card_ids: [2 ** 31] } });
    assert.deepEqual([outOfRange.status, outOfRange.body.detail[0].loc], [422, ['body', 'card_ids', 0]]);
    assert.equal((await api('/api/webhooks')).body.items.length, 0, 'nothing was registered');
    const created = await api('/api/webhooks', { method: 'POST', body: { url: 'https://hooks.example.com/holo' } });
    assert.equal(created.status, 201);
    assert.match(created.body.secret, /^whsec_[\w-]{43}$/);
    assert.ok(created.body.secret.startsWith(created.body.secret_prefix));
    const read = await api(`/api/webhooks/${created.body.id}`);
    assert.equal('secret' in read.body, false);
    const rotated = await api(`/api/webhooks/${created.body.id}/rotate-secret`, { method: 'POST' });
    assert.notEqual(rotated.body.secret, created.body.secret);
    const other = await accountWithKey(stack, 'othershop', 'shop_pro');
    assert.equal((await api(`/api/webhooks/${created.body.id}`, { headers: other.headers })).status, 404, "another account's endpoint");
    const foreignPatch = await api(`/api/webhooks/${created.body.id}`, {
      method: 'PATCH',
      headers: other.headers,
      body: { description: 'taken' },
    });
    assert.equal(foreignPatch.status, 404, "another account's endpoint cannot be changed");
    const foreignRotate = await api(`/api/webhooks/${created.body.id}/rotate-secret`, { method: 'POST', headers: other.headers });
    assert.equal(foreignRotate.status, 404, 'nor its secret rotated');
    const untouched = await api(`/api/webhooks/${created.body.id}`);
    assert.deepEqual([untouched.body.description, untouched.body.secret_prefix], [read.body.description, rotated.body.secret_prefix]);
    assert.equal((await api(`/api/webhooks/${created.body.id}`, { method: 'DELETE' })).status, 200);
    assert.equal((await api(`/api/webhooks/${created.body.id}`)).status, 404);
  });

  it(`are at most ${MAX_ENDPOINTS_PER_USER} an account, however many registrations race: the rest are 409`, async () => {
    const racer = await accountWithKey(stack, 'racingshop', 'shop_pro');
    const answers = await Promise.all(
      Array.from({ length: MAX_ENDPOINTS_PER_USER + 3 }, (_, i) =>
        api('/api/webhooks', { method: 'POST', headers: racer.headers, body: { url: `https://hooks.example.com/race/${i}` } }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort((a, b) => a - b);
    assert.deepEqual(statuses, [...Array<number>(MAX_ENDPOINTS_PER_USER).fill(201), 409, 409, 409]);
    assert.match(answers.find((a) => a.status === 409)!.body.detail, /At most \d+ webhook endpoints per account/);
    assert.equal((await api('/api/webhooks', { headers: racer.headers })).body.items.length, MAX_ENDPOINTS_PER_USER);
  });
});

describe('an ingestion run crosses an alert', () => {
  it('delivers one signed price.alert.triggered to a receiver that fails twice, notifies, e-mails and pushes', async () => {
    let secret = '';
    const receiver = await startWebhookReceiver({ secret: () => secret, failFirst: 2 });
    try {
      const endpoint = await api('/api/webhooks', { method: 'POST', body: { url: receiver.url, events: ['price.alert.triggered'] } });
      assert.equal(endpoint.status, 201);
      secret = endpoint.body.secret;
      const browser = pushService.subscribe('shop-browser');
      assert.equal(
        (await api('/api/devices/register', { method: 'POST', body: { token: browser.endpoint, platform: 'web', keys: browser.keys } }))
          .status,
        201,
      );
      // Far above any price: the next scrape crosses it. A second alert far below never triggers.
      assert.deepEqual((await api('/alerts', { method: 'POST', body: { card_id: 2 ** 31, target_price: 5 } })).body.detail[0].loc, [
        'body',
        'card_id',
      ]);
      assert.equal((await api('/alerts', { method: 'POST', body: { card_id: 2147483647, target_price: 5 } })).status, 404);
      assert.equal((await api('/alerts', { method: 'POST', body: { card_id: cards[0], target_price: 5, currency: 'XYZ' } })).status, 422);
      // A price the numeric(18, 4) column would round to zero is refused before it reaches the database.
      const tiny = await api('/alerts', { method: 'POST', body: { card_id: cards[0], target_price: 5e-324 } });
      assert.equal(tiny.status, 422);
      assert.deepEqual(tiny.body.detail[0].loc, ['body', 'target_price']);
      const crossing = await api('/alerts', {
        method: 'POST',
        body: { card_id: cards[0], target_price: 1_000_000, condition: 'below', currency: 'USD' },
      });
      const quiet = await api('/alerts', {
        method: 'POST',
        body: { card_id: cards[0], target_price: 0.0001, condition: 'below', currency: 'EUR' },
      });
      assert.deepEqual([crossing.status, crossing.body.triggered_at, crossing.body.is_active], [201, null, true]);

      const summary = await ingestRun('alerts-1');
      assert.ok(summary.loaded > 0);
      const accepted = await until('an accepted delivery', async () => receiver.received.find((r) => r.status === 200));
      assert.deepEqual(
        receiver.received.map((r) => r.status),
        [500, 500, 200],
        'failed twice, then accepted once',
      );
      assert.ok(
        receiver.received.every((r) => r.verified && r.headers['x-holo-event-id'] === receiver.received[0]!.headers['x-holo-event-id']),
        'one event, signed every time',
      );
      const event = JSON.parse(accepted.body);
      assert.equal(event.type, 'price.alert.triggered');
      assert.equal(event.attempt, 3);
      assert.deepEqual(
        [event.data.card_id, event.data.alert_id, event.data.currency, event.data.condition],
        [cards[0], crossing.body.id, 'USD', 'below'],
      );
      assert.ok(event.data.market_price > 0 && event.data.market_price <= 1_000_000);
      assert.ok(signatureMatches(secret, accepted.body, accepted.headers['x-holo-signature'] as string));
      // A tampered body no longer matches its signature.
      const tampered = accepted.body.replace(/"market_price":[\d.]+/, '"market_price":0.01');
      assert.notEqual(tampered, accepted.body);
      assert.equal(signatureMatches(secret, tampered, accepted.headers['x-holo-signature'] as string), false);

      const log = await until('the delivery log to say delivered', async () => {
        const l = await api(`/api/webhooks/${endpoint.body.id}/deliveries`);
        return l.body.items[0]?.status === 'delivered' ? l.body.items : null;
      });
      assert.equal(log.length, 1);
      assert.deepEqual(
        [log[0]!.attempts, log[0]!.last_status_code, log[0]!.last_error, log[0]!.event_type],
        [3, 200, null, 'price.alert.triggered'],
      );

      const alerts = (await api('/alerts')).body.items;
      const [triggered, armed] = [alerts.find((a: any) => a.id === crossing.body.id), alerts.find((a: any) => a.id === quiet.body.id)];
      assert.ok(triggered!.triggered_at, 'triggered');
      assert.equal(armed!.triggered_at, null, 'the other alert is still armed');
      const feed = await api('/api/notifications/feed');
      assert.equal(feed.body.unread, 1);
      assert.equal(feed.body.items[0]!.kind, 'price_alert');
      assert.match(feed.body.items[0]!.body, /crossing your below USD 1000000\.00 alert/);
      // The e-mail went through the outbox to the SMTP server, authenticated, and is marked sent.
      const mail = await until('the alert e-mail at the SMTP server', async () =>
        smtp.received.find((m) => m.subject.startsWith('Price alert: ')),
      );
      assert.deepEqual([mail.from, mail.to], ['alerts@holo.test', ['cardshop@example.com']]);
      assert.equal(headerOf(mail.raw, 'From'), 'Holo Alerts <alerts@holo.test>');
      const outbox = await until('the outbox row to be marked sent', async () => {
        const items = (await api('/api/admin/outbox', { headers: await operator() })).body.items;
        return items.find((m: any) => m.kind === 'price_alert' && m.sent_at !== null);
      });
      assert.deepEqual([outbox.to_address, outbox.attempts, outbox.last_error], ['cardshop@example.com', 1, null]);
      assert.equal(mail.subject, outbox.subject);
      // The push reached the browser's push service, signed with our VAPID key and readable only with the browser's keys.
      const push = await until('the alert push', async () => pushService.received.find((p) => p.subscription === 'shop-browser'));
      assert.deepEqual([push.vapidProblem, push.decryptProblem], [null, null]);
      assert.equal(push.vapidKey, (await api('/api/devices/vapid-key')).body.public_key);
      assert.deepEqual((push.payload as any).data, {
        kind: 'price_alert',
        alert_id: crossing.body.id,
        card_id: cards[0],
        market_price: event.data.market_price,
        currency: 'USD',
      });
      assert.match((push.payload as any).body, /crossing your below USD 1000000\.00 alert/);

      // The next run prices the card again: the triggered alert stays triggered, nothing is sent twice.
      // The run's workflow returns once its dispatch has queued every delivery, push and e-mail (rows
      // written before the activity ends): so nothing new queued, and all queued ended, means nothing
      // more can arrive.
      await ingestRun('alerts-2');
      const queued = (
        await stack.stores.pg.pool.query<{ deliveries: string[]; pushes: string[]; mails: number }>(
          `SELECT (SELECT array_agg(status ORDER BY id) FROM webhook_deliveries WHERE endpoint_id = $1) AS deliveries,
                  (SELECT array_agg(o.state ORDER BY o.id) FROM push_outbox o JOIN push_devices d ON d.id = o.device_id WHERE d.user_id = $2) AS pushes,
                  (SELECT count(*)::int FROM email_outbox WHERE user_id = $2) AS mails`,
          [endpoint.body.id, shop.user.id],
        )
      ).rows[0]!;
      assert.deepEqual(queued, { deliveries: ['delivered'], pushes: ['sent'], mails: 1 }, 'the second run queued nothing');
      assert.equal(receiver.received.length, 3);
      assert.equal(pushService.received.length, 1, 'pushed once');
      assert.equal((await api('/api/notifications/unread-count')).body.count, 1);
      // GET, as the spec lists it, marks read like POST; another account's notification is not found.
      const notice = feed.body.items[0]!.id;
      assert.equal((await api(`/api/notifications/${notice}/read`)).body.marked, 1);
      assert.equal((await api('/api/notifications/unread-count')).body.count, 0);
      assert.equal((await api('/api/notifications/read-all')).body.marked, 0, 'nothing left unread');
      const stranger = await accountWithKey(stack, 'notice-stranger', 'free');
      for (const method of ['GET', 'POST'] as const)
        assert.equal((await call(stack, method, `/api/notifications/${notice}/read`, { headers: stranger.headers })).status, 404);
    } finally {
      await receiver.close();
    }
  });

  it('disables an endpoint after its deliveries keep failing, and keeps the reason', async () => {
    const failing = await startWebhookReceiver({ secret: () => '', alwaysFail: true });
    try {
      // price.updated for two cards: two deliveries, each failing all four attempts.
      const endpoint = await api('/api/webhooks', {
        method: 'POST',
        body: { url: failing.url, events: ['price.updated'], card_ids: [cards[1], cards[2]] },
      });
      await ingestRun('disable-1');
      const disabled = await until('the endpoint to be disabled', async () => {
        const e = await api(`/api/webhooks/${endpoint.body.id}`);
        return e.body.is_active === false ? e.body : null;
      });
      assert.deepEqual([disabled.consecutive_failures, disabled.disabled_reason], [2, 'disabled after 2 failed deliveries in a row']);
      const log = (await api(`/api/webhooks/${endpoint.body.id}/deliveries`)).body.items;
      assert.deepEqual(
        log.map((d: any) => [d.event_type, d.status, d.attempts, d.last_status_code]),
        [
          ['price.updated', 'failed', 4, 401],
          ['price.updated', 'failed', 4, 401],
        ],
      );
      assert.equal(failing.received.length, 8);
      // Re-enabled by its owner, it starts from a clean count.
      const enabled = await api(`/api/webhooks/${endpoint.body.id}`, { method: 'PATCH', body: { is_active: true } });
      assert.deepEqual([enabled.body.is_active, enabled.body.consecutive_failures, enabled.body.disabled_reason], [true, 0, null]);
    } finally {
      await failing.close();
    }
  });

  it('digest-now queues the digest as a notification and an e-mail, kept until the SMTP server takes it', async () => {
    smtp.refuse('cardshop@example.com');
    const res = await api('/alerts/digest-now', { method: 'POST' });
    assert.deepEqual(res.body, { ok: true, queued: 1 });
    const feed = await api('/api/notifications/feed?limit=1');
    assert.equal(feed.body.items[0]!.kind, 'digest');
    assert.match(feed.body.items[0]!.body, /Triggered in the last 24 hours \(1\):/);
    assert.match(feed.body.items[0]!.body, /Watching \(1\):/);

    // The relay refuses the mailbox for now: the e-mail stays in the outbox with the reason.
    const digestMail = async () =>
      ((await api('/api/admin/outbox', { headers: await operator() })).body.items as any[]).find((m) => m.kind === 'digest');
    const refused = await until('the refused send to be recorded', async () => {
      const m = await digestMail();
      return m?.attempts === 1 ? m : null;
    });
    assert.equal(refused.sent_at, null);
    assert.match(refused.last_error, /450.*Mailbox cardshop@example\.com unavailable/);
    assert.equal(
      smtp.received.some((m) => m.subject.startsWith('Your Holo digest')),
      false,
    );

    // The next send run (as after any ingestion run or digest) delivers it.
    smtp.accept('cardshop@example.com');
    const run = await client.workflow.execute('emailOutbox', {
      taskQueue: TASK_QUEUE,
      workflowId: workflowIds.emailOutbox('test-resend'),
      args: [],
    });
    assert.deepEqual(run, { sent: 1, failed: 0 });
    const sent = await digestMail();
    assert.deepEqual([sent.attempts, sent.last_error, typeof sent.sent_at], [2, null, 'string']);
    const delivered = smtp.received.filter((m) => m.subject === sent.subject);
    assert.equal(delivered.length, 1);
    assert.deepEqual(delivered[0]!.to, ['cardshop@example.com']);
  });
});

describe('digest-now', () => {
  it(`sends at most ${DIGEST_NOW_PER_HOUR} digests an hour per account, whatever the credentials`, async () => {
    const digests = async () =>
      ((await api('/api/admin/outbox?limit=100', { headers: await operator() })).body.items as any[]).filter(
        (m) => m.kind === 'digest' && m.to_address === 'cardshop@example.com',
      ).length;
    const before = await digests();
    // The test before this one used one of the hour's digests.
    for (let i = 1; i < DIGEST_NOW_PER_HOUR; i++) assert.equal((await api('/alerts/digest-now', { method: 'POST' })).status, 200);
    const res = await fetch(`${stack.url}/alerts/digest-now`, { method: 'POST', headers: shop.headers });
    assert.equal(res.status, 429);
    const retryAfter = Number(res.headers.get('retry-after'));
    assert.ok(retryAfter > 3000 && retryAfter <= 3600, String(retryAfter));
    assert.deepEqual(await res.json(), { detail: `Rate limit exceeded. Retry after ${retryAfter} seconds.` });
    assert.equal(await digests(), before + DIGEST_NOW_PER_HOUR - 1, 'the refused call queued nothing');
  });
});

async function operator(): Promise<Record<string, string>> {
  const fs = await import('node:fs/promises');
  const path = await import('node:path');
  return { Authorization: `Bearer ${(await fs.readFile(path.join(stack.config.dataDir, 'admin-token'), 'utf8')).trim()}` };
}
