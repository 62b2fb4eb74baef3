// Alerts as the spec says (issue 16 §3): the same armed alert twice is 409 "alert exists", and a
// triggered alert is e-mailed only to an account that opted in (POST /me/notifications); every
// account still gets its notification. Wishlists (§2): a card's price falling under its max price
// notifies once, not on every run while it stays under. Prices cross the thresholds through the
// dispatch ingestion runs after each load.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dispatchPriceEvents } from '../ingest/events/dispatch.js';
import { silentLogger } from '../sql/runtime/log.js';
import { accountWithKey } from './support/accounts.js';
import { createTestCards } from './support/catalogue.js';
import { callerOf } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
let card: number;
const call = callerOf(() => stack);

before(async () => {
  stack = await startStack({ demo: 'none' });
  card = Object.values(await createTestCards(stack.stores.pg.pool, 'alerttest', ['umbreon'])).map((c) => c.card)[0]!;
});
after(async () => {
  await stack?.close();
});

const dispatch = (batchId: string, price: number) =>
  dispatchPriceEvents(
    {
      pool: stack.stores.pg.pool,
      log: silentLogger(),
      startDeliveries: async () => undefined,
    },
    { batchId, updates: [{ card_id: card, market_price: price, currency: 'USD' }], usdPerUnit: {} },
  );

describe('alerts', () => {
  it('refuses the same armed alert twice with 409 "alert exists"; another target, direction, currency or account is another alert', async () => {
    const who = await accountWithKey(stack, 'alertdup', 'enterprise');
    const alert = { card_id: card, target_price: 10, condition: 'below', currency: 'USD' };
    assert.equal((await call(who, 'POST', '/alerts', alert)).status, 201);
    const again = await call(who, 'POST', '/alerts', alert);
    assert.deepEqual([again.status, again.body.detail], [409, 'alert exists']);
    for (const other of [{ target_price: 11 }, { condition: 'above' }, { currency: 'EUR' }])
      assert.equal((await call(who, 'POST', '/alerts', { ...alert, ...other })).status, 201, JSON.stringify(other));
    const someoneElse = await accountWithKey(stack, 'alertdup2', 'enterprise');
    assert.equal((await call(someoneElse, 'POST', '/alerts', alert)).status, 201, 'alerts are per account');
    assert.equal((await call(who, 'GET', '/alerts')).body.items.length, 4);
  });

  it('e-mails a triggered alert only to accounts that opted in; every account gets the notification', async () => {
    const quiet = await accountWithKey(stack, 'alertquiet', 'enterprise');
    const keen = await accountWithKey(stack, 'alertkeen', 'enterprise');
    assert.deepEqual((await call(quiet, 'GET', '/me/notifications')).body, { ok: true, alert_emails: false, digest_emails: false });
    assert.equal((await call(null, 'GET', '/me/notifications')).status, 401);
    const chosen = await call(keen, 'POST', '/me/notifications', { alert_emails: true });
    assert.deepEqual(chosen.body, { ok: true, alert_emails: true, digest_emails: false });
    assert.equal((await call(keen, 'POST', '/me/notifications', { alert_emails: 'yes' })).status, 422);
    assert.deepEqual((await call(keen, 'POST', '/me/notifications', {})).body, chosen.body, 'an empty change changes nothing');
    for (const who of [quiet, keen])
      assert.equal(
        (await call(who, 'POST', '/alerts', { card_id: card, target_price: 100, condition: 'above', currency: 'USD' })).status,
        201,
      );

    await dispatch('alert-settings-1', 150);
    await dispatch('alert-settings-2', 160); // triggered once: the second run changes nothing
    const { rows: notices } = await stack.stores.pg.pool.query(
      `SELECT u.username, count(*)::int AS n FROM notifications n JOIN users u ON u.id = n.user_id
       WHERE n.kind = 'price_alert' AND u.username IN ('alertquiet', 'alertkeen') GROUP BY u.username ORDER BY u.username`,
    );
    assert.deepEqual(notices, [
      { username: 'alertkeen', n: 1 },
      { username: 'alertquiet', n: 1 },
    ]);
    const { rows: mails } = await stack.stores.pg.pool.query(
      `SELECT u.username FROM email_outbox m JOIN users u ON u.id = m.user_id WHERE m.kind = 'price_alert' ORDER BY u.username`,
    );
    assert.deepEqual(
      mails.map((m) => m.username),
      ['alertkeen'],
    );
  });
});

describe('wishlists', () => {
  it('adds, lists and removes own cards only, with the current price', async () => {
    const who = await accountWithKey(stack, 'wisher', 'enterprise');
    const other = await accountWithKey(stack, 'otherwisher', 'enterprise');
    assert.equal((await call(null, 'POST', '/wishlist/add', { card_id: card })).status, 401);
    assert.equal((await call(who, 'POST', '/wishlist/add', { card_id: 99_999_999 })).status, 404);
    assert.equal((await call(who, 'POST', '/wishlist/add', { card_id: card, max_price: 0 })).status, 422);
    const added = await call(who, 'POST', '/wishlist/add', { card_id: card });
    assert.equal(added.status, 201);
    assert.deepEqual([added.body.card_id, added.body.max_price, added.body.under_max_price], [card, null, false]);
    const changed = await call(who, 'POST', '/wishlist/add', { card_id: card, max_price: 25 });
    assert.deepEqual([changed.body.id, changed.body.max_price], [added.body.id, 25], 'one item per card; the max price changes');
    assert.equal((await call(who, 'GET', '/wishlist')).body.items.length, 1);
    assert.deepEqual((await call(other, 'GET', '/wishlist')).body, { items: [] });
    assert.equal((await call(other, 'DELETE', `/wishlist/${added.body.id}`)).status, 404);
    assert.deepEqual((await call(who, 'DELETE', `/wishlist/${added.body.id}`)).body, { ok: true });
    assert.deepEqual((await call(who, 'GET', '/wishlist')).body, { items: [] });
  });

  it('notifies once when a price run takes a card under the max price, and again only after it rose above', async () => {
    const who = await accountWithKey(stack, 'bargainhunter', 'enterprise');
    await call(who, 'POST', '/wishlist/add', { card_id: card, max_price: 40 });
    const notices = async () =>
      (
        await stack.stores.pg.pool.query(`SELECT count(*)::int AS n FROM notifications WHERE kind = 'wishlist' AND user_id = $1`, [
          who.user.id,
        ])
      ).rows[0].n;
    await dispatch('wish-1', 55);
    assert.equal(await notices(), 0, 'above the max price');
    await dispatch('wish-2', 39.5);
    await dispatch('wish-3', 38);
    await dispatch('wish-4', 40);
    assert.equal(await notices(), 1, 'under the max price for three runs: one notification');
    await dispatch('wish-5', 45);
    await dispatch('wish-6', 30);
    assert.equal(await notices(), 2, 'it rose above and fell back: notified again');
    const [item] = (await call(who, 'GET', '/wishlist')).body.items;
    assert.ok(item!.notified_at);
  });
});
