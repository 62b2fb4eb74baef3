// Messages between users, blocks and reports over HTTP: the folders and threads, reading marks
// read, a stranger sees nothing, a block stops messages, bids and purchases until lifted, and
// reports go to the moderators once per target.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountWithKey, type KeyedAccount } from './support/accounts.js';
import { createTestCards } from './support/catalogue.js';
import { callerOf } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
let ann: KeyedAccount;
let ben: KeyedAccount;
let cat: KeyedAccount;
let listingId: number;

type Json = Record<string, any>;
const call = callerOf(() => stack);

before(async () => {
  stack = await startStack({ demo: 'none' });
  [ann, ben, cat] = (await Promise.all(['msgann', 'msgben', 'msgcat'].map((name) => accountWithKey(stack, name, 'enterprise')))) as [
    KeyedAccount,
    KeyedAccount,
    KeyedAccount,
  ];
  const card = Object.values(await createTestCards(stack.stores.pg.pool, 'msg-test', ['one'])).map((c) => c.card)[0]!;
  await call(ann, 'POST', '/seller/become', { display_name: 'Ann', country: 'IE' });
  listingId = (await call(ann, 'POST', '/seller/listings', { card_id: card, price: 10, condition: 'LP', accepts_offers: true })).body.id;
});
after(async () => {
  await stack?.close();
});

describe('messages', () => {
  it('sends, lists by folder and listing, groups threads, and marks read on the recipient reading', async () => {
    assert.equal((await call(ben, 'POST', '/api/messages', { to_username: 'nobody-at-all', body: 'hi' })).status, 404);
    assert.equal((await call(ben, 'POST', '/api/messages', { to_username: 'msgben', body: 'hi' })).status, 400);
    assert.equal((await call(ben, 'POST', '/api/messages', { to_username: 'msgann', body: '' })).status, 422);
    assert.equal((await call(ben, 'POST', '/api/messages', { to_username: 'msgann', body: 'x', listing_id: 999999 })).status, 404);
    const about = await call(ben, 'POST', '/api/messages', {
      to_username: 'msgann',
      listing_id: listingId,
      subject: 'Centering?',
      body: 'How is the centering?',
    });
    assert.equal(about.status, 201);
    assert.deepEqual(
      [about.body.from_username, about.body.to_username, about.body.listing_id, about.body.read_at],
      ['msgben', 'msgann', listingId, null],
    );
    await call(ann, 'POST', '/api/messages', { to_username: 'msgben', listing_id: listingId, subject: 'Re: Centering?', body: '55/45' });
    await call(cat, 'POST', '/api/messages', { to_username: 'msgann', body: 'Do you have more?' });

    const inbox = await call(ann, 'GET', '/api/messages');
    assert.deepEqual(
      inbox.body.items.map((m: Json) => m.from_username),
      ['msgcat', 'msgben'],
    );
    assert.deepEqual(inbox.body.messages, inbox.body.items);
    assert.deepEqual(
      (await call(ann, 'GET', '/api/messages?folder=sent')).body.items.map((m: Json) => m.body),
      ['55/45'],
    );
    assert.equal((await call(ann, 'GET', `/api/messages?folder=all&listing_id=${listingId}`)).body.items.length, 2);
    assert.equal((await call(ann, 'GET', '/api/messages?limit=101')).status, 422);

    const threads = await call(ann, 'GET', '/api/messages/threads');
    assert.deepEqual(
      threads.body.items.map((t: Json) => [t.other_username, t.listing_id, t.messages, t.unread]),
      [
        ['msgcat', null, 1, 1],
        ['msgben', listingId, 2, 1],
      ],
    );
    assert.equal((await call(cat, 'GET', `/api/messages/${about.body.id}`)).status, 404);
    assert.equal((await call(ben, 'GET', `/api/messages/${about.body.id}`)).body.read_at, null);
    const read = await call(ann, 'GET', `/api/messages/${about.body.id}`);
    assert.match(read.body.read_at!, /^\d{4}-\d\d-\d\dT/);
    assert.equal((await call(ann, 'GET', '/api/messages/threads')).body.items[1]!.unread, 0);
    const notified = await stack.stores.pg.pool.query(
      `SELECT title FROM notifications WHERE user_id = $1 AND kind = 'message' ORDER BY id`,
      [ann.user.id],
    );
    assert.deepEqual(
      notified.rows.map((r) => r.title),
      ['Message from msgben', 'Message from msgcat'],
    );
  });
});

describe('blocks and reports', () => {
  it('a blocked user cannot message, bid on or buy from the blocker until unblocked', async () => {
    assert.equal((await call(ann, 'POST', `/api/blocks/${ann.user.id}`)).status, 400);
    assert.equal((await call(ann, 'POST', '/api/blocks/999999')).status, 404);
    assert.deepEqual((await call(ann, 'POST', `/api/blocks/${cat.user.id}`)).body, { ok: true, user_id: cat.user.id, blocked: true });
    assert.equal((await call(ann, 'POST', `/api/blocks/${cat.user.id}`)).status, 200);
    assert.deepEqual(
      (await call(ann, 'GET', '/api/blocks')).body.items.map((b: Json) => b.username),
      ['msgcat'],
    );
    assert.equal((await call(cat, 'POST', '/api/messages', { to_username: 'msgann', body: 'why?' })).status, 403);
    assert.equal((await call(cat, 'POST', `/seller/listings/${listingId}/bid`, { amount: 9 })).status, 403);
    assert.equal((await call(cat, 'POST', `/api/listings/${listingId}/buy-now`)).status, 403);
    assert.equal((await call(null, 'GET', `/api/listings/${listingId}`)).body.status, 'active');
    // The block is one-way: the blocker may still write.
    assert.equal((await call(ann, 'POST', '/api/messages', { to_username: 'msgcat', body: 'sorry, no' })).status, 201);

    assert.deepEqual((await call(ann, 'DELETE', `/api/blocks/${cat.user.id}`)).body, { ok: true, user_id: cat.user.id, blocked: false });
    assert.equal((await call(ann, 'DELETE', `/api/blocks/${cat.user.id}`)).status, 404);
    const bid = await call(cat, 'POST', `/seller/listings/${listingId}/bid`, { amount: 9, message: 'fair?' });
    assert.equal(bid.status, 201);
    const told = await stack.stores.pg.pool.query(`SELECT title, body FROM notifications WHERE user_id = $1 AND kind = 'bid'`, [
      ann.user.id,
    ]);
    assert.deepEqual(told.rows, [{ title: 'New bid: EUR 9.00', body: `msgcat bid EUR 9.00 on your listing ${listingId}. "fair?"` }]);
  });

  it('files a report once per target, only about something that exists (a message: one received)', async () => {
    const report = (who: KeyedAccount, target_type: string, target_id: number) =>
      call(who, 'POST', '/api/reports', { target_type, target_id, reason: 'misdescribed', details: 'photos are not of this card' });
    const filed = await report(ben, 'listing', listingId);
    assert.equal(filed.status, 201);
    assert.equal(typeof filed.body.report_id, 'number');
    assert.equal((await report(ben, 'listing', listingId)).status, 409);
    assert.equal((await report(ben, 'listing', 999999)).status, 404);
    assert.equal((await report(ben, 'user', ann.user.id)).status, 201);
    const fromCat = (await call(cat, 'POST', '/api/messages', { to_username: 'msgben', body: 'buy my cards' })).body.id;
    assert.equal((await report(ann, 'message', fromCat)).status, 404);
    assert.equal((await report(ben, 'message', fromCat)).status, 201);
    assert.equal((await call(ben, 'POST', '/api/reports', { target_type: 'listing', target_id: listingId, reason: 'ugly' })).status, 422);
    const stored = await stack.stores.pg.pool.query(`SELECT count(*)::int AS n FROM reports WHERE reporter_id = $1 AND status = 'open'`, [
      ben.user.id,
    ]);
    assert.equal(stored.rows[0].n, 3);
  });
});
