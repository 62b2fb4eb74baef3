// Selling a listing over HTTP: buy-now and its error table, bids and their acceptance, the
// transaction each creates and who may read it; and the race: 50 buy-now and accept calls at once
// on one listing end with exactly one transaction.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountWithKey, type KeyedAccount } from './support/accounts.js';
import { createTestCards } from './support/catalogue.js';
import { callerOf } from './support/http.js';
import { payTransaction } from './support/stripe.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
let seller: KeyedAccount;
let buyers: KeyedAccount[];
let card: number;

type Json = Record<string, any>;
const call = callerOf(() => stack);

async function list(extra: Json = {}): Promise<Json> {
  const created = await call(seller, 'POST', '/seller/listings', { card_id: card, price: 20, condition: 'NM', ...extra });
  assert.equal(created.status, 201);
  return created.body;
}

before(async () => {
  stack = await startStack({ demo: 'none' });
  // Enterprise keys: room in the per-minute limit for the parallel calls.
  seller = await accountWithKey(stack, 'saleseller', 'enterprise');
  buyers = await Promise.all(Array.from({ length: 6 }, (_, i) => accountWithKey(stack, `salebuyer${i}`, 'enterprise')));
  assert.equal((await call(seller, 'POST', '/seller/become', { display_name: 'Sale Shop', country: 'NL' })).status, 201);
  card = Object.values(await createTestCards(stack.stores.pg.pool, 'sale-test', ['charm'])).map((c) => c.card)[0]!;
});
after(async () => {
  await stack?.close();
});

describe('buy-now', () => {
  it('answers every case of the error table, then sells once with the fees of the one fee table', async () => {
    const off = await list({ buy_now_enabled: false });
    const open = await list({ price: 40 });
    assert.equal((await call(null, 'POST', `/api/listings/${open.id}/buy-now`)).status, 401);
    assert.equal((await call(buyers[0]!, 'POST', '/api/listings/999999/buy-now')).status, 404);
    const refused = await call(buyers[0]!, 'POST', `/api/listings/${off.id}/buy-now`);
    assert.deepEqual(
      [refused.status, refused.body],
      [400, { detail: 'buy-now is turned off for this listing', error: 'buy_now_disabled' }],
    );
    const self = await call(seller, 'POST', `/api/listings/${open.id}/buy-now`);
    assert.deepEqual([self.status, self.body.error], [400, 'self_buy']);

    const bought = await call(buyers[0]!, 'POST', `/api/listings/${open.id}/buy-now`, {});
    assert.equal(bought.status, 200);
    assert.deepEqual(
      { ...bought.body, transaction_id: 0 },
      {
        ok: true,
        transaction_id: 0,
        redirect_url: `/api/transactions/${bought.body.transaction_id}/checkout`,
        amount: 40,
        currency: 'EUR',
        handling_fee: 1.2,
        buyer_total: 41.2,
      },
    );
    const again = await call(buyers[1]!, 'POST', `/api/listings/${open.id}/buy-now`);
    assert.deepEqual([again.status, again.body.error], [400, 'listing_unavailable']);
    assert.equal((await call(null, 'GET', `/api/listings/${open.id}`)).body.status, 'sold');

    // The transaction: its parties read it, anyone else finds none (paying: marketplace-payments.test).
    const id = bought.body.transaction_id;
    const asBuyer = await call(buyers[0]!, 'GET', `/api/transactions/${id}`);
    assert.deepEqual(
      [asBuyer.body.status, asBuyer.body.buyer_username, asBuyer.body.seller_username, asBuyer.body.amount, asBuyer.body.bid_id],
      ['awaiting_payment', 'salebuyer0', 'saleseller', 40, null],
    );
    assert.deepEqual((await call(seller, 'GET', `/api/transactions/${id}`)).body, asBuyer.body);
    assert.equal((await call(buyers[1]!, 'GET', `/api/transactions/${id}`)).status, 404);
    const events = await stack.stores.pg.pool.query(
      `SELECT actor_id, from_status, to_status FROM transaction_events WHERE transaction_id = $1`,
      [id],
    );
    assert.deepEqual(events.rows, [{ actor_id: buyers[0]!.user.id, from_status: null, to_status: 'awaiting_payment' }]);

    const expired = await list();
    await stack.stores.pg.pool.query(`UPDATE listings SET expires_at = now() - interval '1 minute' WHERE id = $1`, [expired.id]);
    const late = await call(buyers[1]!, 'POST', `/api/listings/${expired.id}/buy-now`);
    assert.deepEqual([late.status, late.body.error], [400, 'listing_unavailable']);
  });
});

describe('buy-now with a variant', () => {
  it("selects the listing's variant (any case) and is a 409 for another, leaving the listing for sale", async () => {
    const holo = await list({ variant: 'Holofoil' });
    const other = await call(buyers[1]!, 'POST', `/api/listings/${holo.id}/buy-now`, { variant: 'reverse-holo' });
    assert.deepEqual([other.status, other.body.detail], [409, 'this listing is the Holofoil variant, not reverse-holo']);
    assert.equal((await call(null, 'GET', `/api/listings/${holo.id}`)).body.status, 'active');
    const plain = await list();
    assert.equal((await call(buyers[1]!, 'POST', `/api/listings/${plain.id}/buy-now`, { variant: 'holofoil' })).status, 409);
    const bought = await call(buyers[1]!, 'POST', `/api/listings/${holo.id}/buy-now`, { variant: 'holofoil' });
    assert.equal(bought.status, 200, JSON.stringify(bought.body));
    assert.equal((await call(buyers[1]!, 'POST', `/api/listings/${plain.id}/buy-now`, {})).status, 200, 'no variant: the listing as it is');
  });
});

describe('bids', () => {
  it('bids only where offers are taken and never on an own listing; the list names bidders to the seller only', async () => {
    const fixed = await list();
    const offers = await list({ accepts_offers: true, price: 30 });
    assert.equal((await call(buyers[0]!, 'POST', `/seller/listings/${fixed.id}/bid`, { amount: 15 })).status, 400);
    assert.equal((await call(seller, 'POST', `/seller/listings/${offers.id}/bid`, { amount: 15 })).status, 400);
    const tooLong = await call(buyers[0]!, 'POST', `/seller/listings/${offers.id}/bid`, { amount: 15, message: 'x'.repeat(501) });
    assert.deepEqual([tooLong.status, tooLong.body.detail[0].loc], [422, ['body', 'message']]);
    const first = await call(buyers[0]!, 'POST', `/seller/listings/${offers.id}/bid`, { amount: 22, message: 'cash today' });
    assert.deepEqual([first.status, first.body.amount, first.body.status, first.body.bidder], [201, 22, 'open', 'salebuyer0']);
    await call(buyers[1]!, 'POST', `/seller/listings/${offers.id}/bid`, { amount: 25 });
    await call(buyers[0]!, 'POST', `/seller/listings/${offers.id}/bid`, { amount: 26 });

    const publicList = await call(null, 'GET', `/seller/listings/${offers.id}/bids`);
    assert.deepEqual(
      publicList.body.items.map((b: Json) => [b.amount, b.bidder]),
      [
        [26, 'bidder 1'],
        [25, 'bidder 2'],
        [22, 'bidder 1'],
      ],
    );
    const sellerList = await call(seller, 'GET', `/seller/listings/${offers.id}/bids`);
    assert.deepEqual(
      sellerList.body.items.map((b: Json) => b.bidder),
      ['salebuyer0', 'salebuyer1', 'salebuyer0'],
    );
    const ownView = await call(buyers[1]!, 'GET', `/seller/listings/${offers.id}/bids`);
    assert.deepEqual(
      ownView.body.items.map((b: Json) => b.bidder),
      ['bidder 1', 'salebuyer1', 'bidder 1'],
    );

    const bid25 = sellerList.body.items[1]!.id;
    assert.equal((await call(buyers[1]!, 'POST', `/seller/listings/${offers.id}/bids/${bid25}/accept`)).status, 403);
    assert.equal((await call(seller, 'POST', `/seller/listings/${offers.id}/bids/999999/accept`)).status, 404);
    const accepted = await call(seller, 'POST', `/seller/listings/${offers.id}/bids/${bid25}/accept`);
    assert.equal(accepted.status, 201);
    assert.deepEqual(
      [accepted.body.status, accepted.body.amount, accepted.body.buyer_username, accepted.body.bid_id, accepted.body.buyer_total],
      ['awaiting_payment', 25, 'salebuyer1', bid25, 25.75],
    );
    assert.deepEqual(
      (await call(seller, 'GET', `/seller/listings/${offers.id}/bids`)).body.items.map((b: Json) => b.status),
      ['closed', 'accepted', 'closed'],
    );
    assert.equal((await call(null, 'GET', `/api/listings/${offers.id}`)).body.status, 'sold');
    assert.equal((await call(buyers[2]!, 'POST', `/seller/listings/${offers.id}/bid`, { amount: 40 })).status, 409);
  });
});

describe('after the sale', () => {
  it('moves through the flow by the right party only, records each move, notifies the other party, and rates once each after delivery', async () => {
    const listing = await list({ price: 60 });
    const [buyer, stranger] = [buyers[3]!, buyers[4]!];
    const { body: sale } = await call(buyer, 'POST', `/api/listings/${listing.id}/buy-now`);
    const id = sale.transaction_id;
    const move = (who: KeyedAccount, status: string) => call(who, 'POST', `/api/transactions/${id}/status`, { status });

    assert.equal((await move(stranger, 'paid')).status, 404);
    // Paid is the payment's move: no party can claim it.
    for (const party of [buyer, seller]) {
      const claimed = await move(party, 'paid');
      assert.deepEqual([claimed.status, claimed.body.error], [409, 'payment_required']);
    }
    assert.equal((await move(buyer, 'delivered')).status, 409);
    assert.equal((await move(buyer, 'disputed')).status, 409);
    assert.equal((await call(seller, 'POST', `/api/transactions/${id}/tracking`, { carrier: 'DHL', tracking_number: 'X1' })).status, 409);
    assert.equal((await call(buyer, 'POST', `/api/transactions/${id}/rating`, { rating: 5 })).status, 409);
    await payTransaction(stack, buyer, id);
    assert.equal((await call(buyer, 'GET', `/api/transactions/${id}`)).body.status, 'paid');
    assert.equal((await call(buyer, 'POST', `/api/transactions/${id}/tracking`, { carrier: 'DHL', tracking_number: 'X1' })).status, 403);
    const shipped = await call(seller, 'POST', `/api/transactions/${id}/tracking`, {
      carrier: 'DHL',
      tracking_number: '00340434161094000000',
    });
    assert.deepEqual([shipped.body.status, shipped.body.carrier, shipped.body.tracking_number], ['shipped', 'DHL', '00340434161094000000']);
    assert.equal((await move(buyer, 'cancelled')).status, 409);
    assert.equal((await move(seller, 'delivered')).status, 403);
    assert.equal((await move(buyer, 'delivered')).body.status, 'delivered');
    assert.equal((await move(buyer, 'completed')).body.status, 'completed');
    assert.equal((await move(buyer, 'completed')).status, 409);

    const tooLong = await call(buyer, 'POST', `/api/transactions/${id}/rating`, { rating: 5, review: 'x'.repeat(1001) });
    assert.equal(tooLong.status, 422);
    assert.equal((await call(buyer, 'POST', `/api/transactions/${id}/rating`, { rating: 6 })).status, 422);
    assert.equal((await call(buyer, 'POST', `/api/transactions/${id}/rating`, { rating: 4, review: 'well packed' })).status, 201);
    assert.equal((await call(buyer, 'POST', `/api/transactions/${id}/rating`, { rating: 5 })).status, 409);
    assert.equal((await call(seller, 'POST', `/api/transactions/${id}/rating`, { rating: 5, review: 'paid fast' })).status, 201);
    assert.equal((await call(stranger, 'POST', `/api/transactions/${id}/rating`, { rating: 1 })).status, 404);

    const rep = await call(null, 'GET', '/api/reputation/saleseller');
    assert.deepEqual([rep.body.avg, rep.body.count], [4, 1]);
    assert.deepEqual(
      rep.body.recent_reviews.map((r: Json) => [r.rating, r.review, r.buyer]),
      [[4, 'well packed', 'salebuyer3']],
    );
    assert.deepEqual((await call(null, 'GET', '/api/users/saleseller/reputation')).body, rep.body);
    assert.deepEqual((await call(null, 'GET', '/api/reputation/salebuyer3')).body.avg, 5);
    assert.equal((await call(null, 'GET', '/api/reputation/nobody-here')).status, 404);

    const events = await stack.stores.pg.pool.query(
      `SELECT actor_id, source, from_status, to_status FROM transaction_events WHERE transaction_id = $1 ORDER BY id`,
      [id],
    );
    const actor = (e: Json) =>
      e.actor_id === null ? e.source.replace(/^(stripe):evt_.*$/, '$1') : e.actor_id === seller.user.id ? 'seller' : 'buyer';
    assert.deepEqual(
      events.rows.map((e) => [actor(e), e.from_status, e.to_status]),
      [
        ['buyer', null, 'awaiting_payment'],
        ['stripe', 'awaiting_payment', 'paid'],
        ['seller', 'paid', 'shipped'],
        ['buyer', 'shipped', 'delivered'],
        ['buyer', 'delivered', 'completed'],
      ],
    );
    const told = await stack.stores.pg.pool.query(
      `SELECT user_id, title FROM notifications WHERE kind = 'transaction' AND data->>'transaction_id' = $1 ORDER BY id`,
      [String(id)],
    );
    assert.deepEqual(
      told.rows.map((n) => [n.user_id === seller.user.id ? 'seller' : 'buyer', n.title]),
      [
        ['seller', `Transaction ${id}: paid`],
        ['buyer', `Transaction ${id}: paid`],
        ['buyer', `Transaction ${id}: shipped`],
        ['seller', `Transaction ${id}: delivered`],
        ['seller', `Transaction ${id}: completed`],
      ],
    );
    const mailed = await stack.stores.pg.pool.query(
      `SELECT count(*)::int AS n FROM email_outbox WHERE kind = 'transaction' AND subject LIKE $1`,
      [`Transaction ${id}:%`],
    );
    assert.equal(mailed.rows[0].n, 5);
  });

  it('a sale cancelled before shipping gives the listing back to the market; a paid one can be disputed', async () => {
    const listing = await list({ price: 15 });
    const { body: sale } = await call(buyers[5]!, 'POST', `/api/listings/${listing.id}/buy-now`);
    const cancelled = await call(seller, 'POST', `/api/transactions/${sale.transaction_id}/status`, { status: 'cancelled' });
    assert.equal(cancelled.body.status, 'cancelled');
    assert.equal((await call(null, 'GET', `/api/listings/${listing.id}`)).body.status, 'active');
    const again = await call(buyers[4]!, 'POST', `/api/listings/${listing.id}/buy-now`);
    assert.equal(again.status, 200);
    await payTransaction(stack, buyers[4]!, again.body.transaction_id);
    const disputed = await call(seller, 'POST', `/api/transactions/${again.body.transaction_id}/status`, { status: 'disputed' });
    assert.equal(disputed.body.status, 'disputed');
    assert.equal(
      (await call(buyers[4]!, 'POST', `/api/transactions/${again.body.transaction_id}/status`, { status: 'cancelled' })).status,
      409,
    );
  });
});

describe('the race for one listing', () => {
  it('50 buy-now and accept calls at once: exactly one transaction, every other call listing_unavailable', async () => {
    const contested = await list({ accepts_offers: true, price: 50 });
    const bids: number[] = [];
    for (let i = 0; i < 10; i++)
      bids.push((await call(buyers[i % buyers.length]!, 'POST', `/seller/listings/${contested.id}/bid`, { amount: 40 + i })).body.id);
    const calls = [
      ...bids.map((bid) => call(seller, 'POST', `/seller/listings/${contested.id}/bids/${bid}/accept`)),
      ...Array.from({ length: 40 }, (_, i) => call(buyers[i % buyers.length]!, 'POST', `/api/listings/${contested.id}/buy-now`)),
    ];
    const answers = await Promise.all(calls);
    const winners = answers.filter((a) => a.status === 200 || a.status === 201);
    assert.equal(winners.length, 1, JSON.stringify(answers.map((a) => a.status)));
    const losers = answers.filter((a) => a !== winners[0]);
    assert.equal(losers.length, 49);
    for (const l of losers) assert.equal(l.body.error, 'listing_unavailable', JSON.stringify(l));
    const stored = await stack.stores.pg.pool.query(`SELECT count(*)::int AS n FROM transactions WHERE listing_id = $1`, [contested.id]);
    assert.equal(stored.rows[0].n, 1);
    assert.equal((await call(null, 'GET', `/api/listings/${contested.id}`)).body.status, 'sold');
  });
});
