// Push for real, on a real Temporal server and PostgreSQL: a message to an account reaches each of
// its devices: browsers through their push service (a local one that checks the VAPID signature
// and decrypts the payload with the browser's keys), iPhones through APNs and Android phones
// through FCM (local ones that check the provider token and the OAuth assertion). A push service
// that fails is tried again by the outbox workflow; a device its service calls gone (410, 404
// UNREGISTERED) is disabled; without credentials a platform's pushes are marked, not pretended
// sent; registration checks its input.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountWithKey, type KeyedAccount } from './support/accounts.js';
import { callerOf } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';
import { TemporalRig } from './support/temporal.js';
import { until } from './support/until.js';
import { startWebPushReceiver } from './support/webPushReceiver.js';
import { startApnsReceiver, startFcmReceiver } from './support/mobilePushReceivers.js';
import { activityDeps } from '../workflows/activities.js';

let stack: Stack;
let rig: TemporalRig;
let pushService: Awaited<ReturnType<typeof startWebPushReceiver>>;
let apns: Awaited<ReturnType<typeof startApnsReceiver>>;
let fcm: Awaited<ReturnType<typeof startFcmReceiver>>;
let collector: KeyedAccount;
let friend: KeyedAccount;

const call = callerOf(() => stack);
const outboxOf = async (userId: number) =>
  (
    await stack.stores.pg.pool.query<{ token: string; state: string; attempts: number; last_error: string | null; disabled: boolean }>(
      `SELECT d.token, o.state, o.attempts, o.last_error, d.disabled_at IS NOT NULL AS disabled
       FROM push_outbox o JOIN push_devices d ON d.id = o.device_id WHERE d.user_id = $1 ORDER BY o.id`,
      [userId],
    )
  ).rows;

before(async () => {
  pushService = await startWebPushReceiver();
  apns = await startApnsReceiver({ gone: ['apns-uninstalled-0001'] });
  fcm = await startFcmReceiver({ gone: ['fcm-uninstalled-0001'] });
  stack = await startStack({
    demo: 'none',
    env: { HOLO_PUSH_RETRY_SECONDS: '1', HOLO_PUSH_MAX_ATTEMPTS: '3', ...apns.env, ...fcm.env },
  });
  rig = await TemporalRig.start(stack);
  collector = await accountWithKey(stack, 'pushcollector', 'free');
  friend = await accountWithKey(stack, 'pushfriend', 'free');
});
after(async () => {
  await rig?.close();
  await stack?.close();
  await pushService?.close();
  await apns?.close();
  await fcm?.close();
});

describe('push notifications', () => {
  it('reach every browser signed and encrypted, retry a failing push service and disable a gone subscription', async () => {
    const laptop = pushService.subscribe('laptop');
    const phone = pushService.subscribe('phone', [503, 201]);
    const old = pushService.subscribe('old', [410]);
    for (const s of [laptop, phone, old])
      assert.equal(
        (await call(collector, 'POST', '/api/devices/register', { platform: 'web', token: s.endpoint, keys: s.keys })).status,
        201,
      );
    for (const [platform, token] of [
      ['ios', 'apns-device-token-0001'],
      ['ios', 'apns-uninstalled-0001'],
      ['android', 'fcm-device-token-0001'],
      ['android', 'fcm-uninstalled-0001'],
    ])
      assert.equal((await call(collector, 'POST', '/api/devices/register', { platform, token })).status, 201);

    const sent = await call(friend, 'POST', '/api/messages', {
      to_username: 'pushcollector',
      subject: 'Trade?',
      body: 'Your Charizard for my Blastoise',
    });
    assert.equal(sent.status, 201);

    const delivered = await until('both browsers to have the message', async () => {
      const ok = pushService.received.filter((p) => p.status === 201);
      return ok.length >= 2 && ok;
    });
    const { public_key } = (await call(null, 'GET', '/api/devices/vapid-key')).body;
    for (const push of delivered) {
      assert.deepEqual([push.vapidProblem, push.decryptProblem, push.vapidKey], [null, null, public_key]);
      assert.deepEqual(push.payload, {
        title: 'Message from pushfriend',
        body: 'Trade?',
        data: { kind: 'message', message_id: sent.body.id, listing_id: null },
      });
      assert.ok(Number(push.ttl) > 0, 'a TTL for offline browsers');
    }
    // The phone's push service failed once: the outbox workflow tried again.
    assert.deepEqual(
      pushService.received.filter((p) => p.subscription === 'phone').map((p) => p.status),
      [503, 201],
    );
    const rows = await until('every push to end', async () => {
      const r = await outboxOf(collector.user.id);
      return r.every((x) => x.state !== 'pending') && r;
    });
    const byToken = Object.fromEntries(rows.map((r) => [r.token, r]));
    assert.deepEqual([byToken[laptop.endpoint]!.state, byToken[laptop.endpoint]!.attempts], ['sent', 1]);
    assert.deepEqual([byToken[phone.endpoint]!.state, byToken[phone.endpoint]!.attempts], ['sent', 2]);
    assert.deepEqual([byToken[old.endpoint]!.state, byToken[old.endpoint]!.disabled], ['gone', true]);
    // The phones: APNs and FCM checked our credentials and took the message; uninstalled apps disable their devices.
    for (const provider of [apns, fcm]) {
      const mine = provider.received.filter((p) => p.status === 200);
      assert.equal(mine.length, 1);
      assert.deepEqual([mine[0]!.problem, mine[0]!.title, mine[0]!.body], [null, 'Message from pushfriend', 'Trade?']);
    }
    assert.deepEqual(apns.received.find((p) => p.status === 200)!.data, { kind: 'message', message_id: sent.body.id, listing_id: null });
    // FCM's data values are strings.
    assert.deepEqual(fcm.received.find((p) => p.status === 200)!.data, {
      kind: 'message',
      message_id: String(sent.body.id),
      listing_id: 'null',
    });
    assert.deepEqual(fcm.tokenRequests, [{ problem: null }], 'one access token, bought with a valid assertion and reused');
    assert.deepEqual(
      ['apns-device-token-0001', 'fcm-device-token-0001', 'apns-uninstalled-0001', 'fcm-uninstalled-0001'].map((t) => [
        byToken[t]!.state,
        byToken[t]!.disabled,
      ]),
      [
        ['sent', false],
        ['sent', false],
        ['gone', true],
        ['gone', true],
      ],
    );

    // The next notification skips the disabled subscription; registering it again enables it.
    const before = pushService.received.length;
    await call(friend, 'POST', '/api/messages', { to_username: 'pushcollector', body: 'Still there?' });
    const [apnsBefore, fcmBefore] = [apns.received.length, fcm.received.length];
    await until('the next message at the two browsers', async () => pushService.received.length >= before + 2);
    await until('the next message at both phones', async () => apns.received.length > apnsBefore && fcm.received.length > fcmBefore);
    // Its pushes were queued with the message (one row a device, in its transaction): once each has
    // ended, no other send of it can arrive. The disabled subscription has no row.
    const next = await until('every push of the next message to end', async () => {
      const r = (await outboxOf(collector.user.id)).slice(rows.length);
      return r.length > 0 && r.every((x) => x.state !== 'pending') && r;
    });
    const byText = (a: string, b: string) => a.localeCompare(b);
    assert.deepEqual(
      next.map((r) => `${r.state} ${r.token}`).sort(byText),
      ['apns-device-token-0001', 'fcm-device-token-0001', laptop.endpoint, phone.endpoint].map((t) => `sent ${t}`).sort(byText),
    );
    assert.deepEqual([...apns.received.slice(apnsBefore), ...fcm.received.slice(fcmBefore)].map((p) => p.token).sort(), [
      'apns-device-token-0001',
      'fcm-device-token-0001',
    ]);
    assert.deepEqual(
      pushService.received
        .slice(before)
        .map((p) => p.subscription)
        .sort(),
      ['laptop', 'phone'],
    );
    assert.equal(
      (await call(collector, 'POST', '/api/devices/register', { platform: 'web', token: old.endpoint, keys: old.keys })).status,
      201,
    );
    const { rows: enabled } = await stack.stores.pg.pool.query(`SELECT disabled_at FROM push_devices WHERE token = $1`, [old.endpoint]);
    assert.equal(enabled[0].disabled_at, null);
  });

  it('gives up after the last attempt', async () => {
    const down = pushService.subscribe('down', [500]);
    const who = await accountWithKey(stack, 'pushdown', 'free');
    await call(who, 'POST', '/api/devices/register', { platform: 'web', token: down.endpoint, keys: down.keys });
    await call(friend, 'POST', '/api/messages', { to_username: 'pushdown', body: 'hello' });
    const [row] = await until(
      'the push to fail for good',
      async () => {
        const r = await outboxOf(who.user.id);
        return r[0]?.state === 'failed' && r;
      },
      60_000,
    );
    assert.deepEqual([row!.attempts, row!.last_error], [3, 'the push service answered 500']);
    assert.equal(pushService.received.filter((p) => p.subscription === 'down').length, 3);
  });

  it('marks the pushes of a platform without credentials, and sends none', async () => {
    await rig.startWorker(activityDeps({ ...stack.config, apns: null, fcm: null }, stack.stores));
    try {
      const who = await accountWithKey(stack, 'pushnocreds', 'free');
      await call(who, 'POST', '/api/devices/register', { platform: 'ios', token: 'apns-device-token-0002' });
      await call(who, 'POST', '/api/devices/register', { platform: 'android', token: 'fcm-device-token-0002' });
      const received = apns.received.length + fcm.received.length;
      await call(friend, 'POST', '/api/messages', { to_username: 'pushnocreds', body: 'hello' });
      const rows = await until('both pushes to end', async () => {
        const r = await outboxOf(who.user.id);
        return r.length === 2 && r.every((x) => x.state !== 'pending') && r;
      });
      assert.deepEqual(
        rows.map((r) => [r.state, r.last_error]),
        [
          ['unconfigured', 'APNs credentials are not configured'],
          ['unconfigured', 'FCM credentials are not configured'],
        ],
      );
      assert.equal(apns.received.length + fcm.received.length, received);
    } finally {
      await rig.startWorker();
    }
  });

  it('registers only what it can push to', async () => {
    const s = pushService.subscribe('checks');
    const register = (body: unknown) => call(collector, 'POST', '/api/devices/register', body);
    const noKeys = await register({ platform: 'web', token: s.endpoint });
    assert.deepEqual([noKeys.status, noKeys.body.detail[0].loc], [422, ['body', 'keys']]);
    const keysOnPhone = await register({ platform: 'android', token: 'fcm-token-000001', keys: s.keys });
    assert.deepEqual([keysOnPhone.status, keysOnPhone.body.detail[0].loc], [422, ['body', 'keys']]);
    const shortKey = await register({ platform: 'web', token: s.endpoint, keys: { ...s.keys, p256dh: s.keys.p256dh.slice(1) } });
    assert.deepEqual([shortKey.status, shortKey.body.detail[0].loc], [422, ['body', 'keys', 'p256dh']]);
    // Plain http only to this machine outside production, as webhook receivers.
    const plain = await register({ platform: 'web', token: 'http://push.example.com/x', keys: s.keys });
    assert.equal(plain.status, 400);
    assert.match(plain.body.detail, /^token: must be an https:\/\/ URL/);
    assert.equal((await call(null, 'POST', '/api/devices/register', { platform: 'web', token: s.endpoint, keys: s.keys })).status, 401);
  });
});
