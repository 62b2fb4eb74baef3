// Paying for a transaction on Stripe's own API mock server (stripe-mock, installed and started by
// the stack on first use): the checkout opens one Stripe Checkout session per transaction at a
// time, Stripe's signed webhook event moves the transaction to paid exactly once however often it
// arrives, and a cancellation closes the checkout or refunds the payment.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { accountWithKey, type KeyedAccount } from './support/accounts.js';
import { createTestCards } from './support/catalogue.js';
import { callerOf } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';
import { repoRoot } from '../sql/runtime/paths.js';
import { completedSession, openCheckout, postStripeEvent, sessionsOf } from './support/stripe.js';

let stack: Stack;
let seller: KeyedAccount;
let buyer: KeyedAccount;
let stranger: KeyedAccount;
let card: number;

const call = callerOf(() => stack);

/** A new listing bought now by the buyer: the transaction's id. */
async function sale(price = 20): Promise<number> {
  const listing = await call(seller, 'POST', '/seller/listings', { card_id: card, price, condition: 'NM' });
  const bought = await call(buyer, 'POST', `/api/listings/${listing.body.id}/buy-now`);
  assert.equal(bought.status, 200);
  return bought.body.transaction_id;
}

const statusOf = async (id: number) => (await call(buyer, 'GET', `/api/transactions/${id}`)).body.status;
const paidEvents = async (id: number) =>
  (
    await stack.stores.pg.pool.query(`SELECT count(*)::int AS n FROM transaction_events WHERE transaction_id = $1 AND to_status = 'paid'`, [
      id,
    ])
  ).rows[0].n;

before(async () => {
  stack = await startStack({ demo: 'none' });
  seller = await accountWithKey(stack, 'payseller', 'enterprise');
  buyer = await accountWithKey(stack, 'paybuyer', 'enterprise');
  stranger = await accountWithKey(stack, 'paystranger', 'enterprise');
  assert.equal((await call(seller, 'POST', '/seller/become', { display_name: 'Pay Shop', country: 'DE' })).status, 201);
  card = Object.values(await createTestCards(stack.stores.pg.pool, 'pay-test', ['charm'])).map((c) => c.card)[0]!;
});
after(async () => {
  await stack?.close();
});

describe('the whole journey over HTTP', () => {
  it('become a seller, photograph, list, bid, accept, pay, ship, deliver, complete, rate, and read the reputation', async () => {
    const shop = await accountWithKey(stack, 'journeyshop', 'enterprise');
    const collector = await accountWithKey(stack, 'journeybuyer', 'enterprise');
    const as = call;
    assert.equal((await as(shop, 'POST', '/seller/become', { display_name: 'Journey Cards', country: 'AT' })).status, 201);
    const form = new FormData();
    const scan = fs.readFileSync(path.resolve(repoRoot, '..', 'shared', 'data', 'images', 'pokemon-sv3pt5', 'sv3pt5-6.webp'));
    form.append('watermark', 'true');
    form.append('file', new Blob([scan], { type: 'image/webp' }), 'charizard.webp');
    const photo = await fetch(`${stack.url}/api/upload/listing-image`, { method: 'POST', headers: shop.headers, body: form });
    assert.equal(photo.status, 201);
    const { url } = (await photo.json()) as { url: string };
    const listing = await as(shop, 'POST', '/seller/listings', {
      card_id: card,
      price: 120,
      condition: 'NM',
      accepts_offers: true,
      image_urls: [url],
    });
    assert.equal(listing.status, 201);
    const bid = await as(collector, 'POST', `/seller/listings/${listing.body.id}/bid`, { amount: 100, message: 'Would you take 100?' });
    assert.equal(bid.status, 201);
    const accepted = await as(shop, 'POST', `/seller/listings/${listing.body.id}/bids/${bid.body.id}/accept`);
    assert.deepEqual([accepted.status, accepted.body.status, accepted.body.buyer_total], [201, 'awaiting_payment', 103]);
    const id = accepted.body.id;

    const checkout = await openCheckout(stack, collector, id);
    assert.equal(checkout.status, 302);
    const [session] = await sessionsOf(stack, id);
    assert.equal(session!.amount_cents, 10300);
    assert.equal((await postStripeEvent(stack, completedSession(session!))).body.outcome, 'paid');
    assert.equal(
      (await as(shop, 'POST', `/api/transactions/${id}/tracking`, { carrier: 'Post AT', tracking_number: 'RR123456789AT' })).body.status,
      'shipped',
    );
    assert.equal((await as(collector, 'POST', `/api/transactions/${id}/status`, { status: 'delivered' })).body.status, 'delivered');
    assert.equal((await as(collector, 'POST', `/api/transactions/${id}/status`, { status: 'completed' })).body.status, 'completed');
    assert.equal((await as(collector, 'POST', `/api/transactions/${id}/rating`, { rating: 5, review: 'Exactly as pictured' })).status, 201);
    assert.equal((await as(shop, 'POST', `/api/transactions/${id}/rating`, { rating: 4 })).status, 201);
    const shopReputation = await as(collector, 'GET', '/api/reputation/journeyshop');
    assert.deepEqual(
      [shopReputation.body.avg, shopReputation.body.count, shopReputation.body.recent_reviews[0]!.review],
      [5, 1, 'Exactly as pictured'],
    );
    assert.equal((await as(shop, 'GET', '/api/users/journeybuyer/reputation')).body.avg, 4);
  });
});

describe('checkout', () => {
  it('sends the buyer, and only the buyer, to one Stripe Checkout session for the buyer total', async () => {
    const id = await sale(40);
    assert.equal((await openCheckout(stack, stranger, id)).status, 404);
    const bySeller = await openCheckout(stack, seller, id);
    assert.equal(bySeller.status, 403);
    assert.equal((await openCheckout(stack, buyer, 999999)).status, 404);

    const first = await openCheckout(stack, buyer, id);
    assert.equal(first.status, 302, JSON.stringify(first.body));
    assert.match(first.location!, /^https:\/\/checkout\.stripe\.com\//);
    assert.deepEqual(first.body, { checkout_url: first.location });
    const sessions = await sessionsOf(stack, id);
    assert.equal(sessions.length, 1);
    assert.match(sessions[0]!.id, /^cs_test_/);
    assert.equal(sessions[0]!.amount_cents, 4120, 'price 40 EUR and the 3 % handling fee');

    // Clicking again, even many times at once, reuses the open session: a buyer cannot pay twice.
    const again = await Promise.all(Array.from({ length: 8 }, () => openCheckout(stack, buyer, id)));
    assert.deepEqual(new Set(again.map((c) => `${c.status} ${c.location}`)), new Set([`302 ${first.location}`]));
    assert.equal((await sessionsOf(stack, id)).length, 1);
  });

  it('is refused once the transaction is no longer awaiting payment', async () => {
    const id = await sale();
    await openCheckout(stack, buyer, id);
    assert.equal((await postStripeEvent(stack, completedSession((await sessionsOf(stack, id))[0]!))).body.outcome, 'paid');
    const late = await openCheckout(stack, buyer, id);
    assert.equal(late.status, 409);
    assert.match(late.body.detail, /paid/);
  });
});

describe('the Stripe webhook', () => {
  it('refuses an unsigned, wrongly signed or tampered event and changes nothing', async () => {
    const id = await sale();
    await openCheckout(stack, buyer, id);
    const event = completedSession((await sessionsOf(stack, id))[0]!);
    const eventsOnRecord = async () => (await stack.stores.pg.pool.query('SELECT count(*)::int AS n FROM stripe_events')).rows[0].n;
    const before = await eventsOnRecord();
    const unsigned = await postStripeEvent(stack, event, { signature: null });
    assert.deepEqual([unsigned.status, unsigned.body.detail], [400, 'missing the Stripe-Signature header']);
    const forged = await postStripeEvent(stack, event, { secret: 'whsec_not_the_endpoints_secret' });
    assert.equal(forged.status, 400);
    assert.match(forged.body.detail, /Stripe-Signature does not match/);
    assert.equal((await postStripeEvent(stack, event, { signature: 't=1,v1=00' })).status, 400);
    assert.equal(await statusOf(id), 'awaiting_payment');
    assert.equal(await eventsOnRecord(), before);
  });

  it('moves the transaction to paid exactly once, however often and however concurrently Stripe delivers', async () => {
    const id = await sale(30);
    await openCheckout(stack, buyer, id);
    const session = (await sessionsOf(stack, id))[0]!;
    const event = { id: `evt_once_${id}`, ...completedSession(session) };
    // Stripe retries a delivery it thinks failed; here ten copies arrive at once.
    const deliveries = await Promise.all(Array.from({ length: 10 }, () => postStripeEvent(stack, event)));
    assert.deepEqual(
      deliveries.map((d) => d.status),
      Array(10).fill(200),
    );
    const outcomes = deliveries.map((d) => d.body.outcome);
    assert.deepEqual([outcomes.filter((o) => o === 'paid').length, outcomes.filter((o) => o === 'duplicate').length], [1, 9]);
    // The same payment reported by another event (async_payment_succeeded after completed).
    const other = await postStripeEvent(stack, { ...completedSession(session), type: 'checkout.session.async_payment_succeeded' });
    assert.equal(other.body.outcome, 'already_settled');
    assert.equal(await statusOf(id), 'paid');
    assert.equal(await paidEvents(id), 1);
    const notices = await stack.stores.pg.pool.query(
      `SELECT count(*)::int AS n FROM notifications WHERE kind = 'transaction' AND title = $1`,
      [`Transaction ${id}: paid`],
    );
    assert.equal(notices.rows[0].n, 2, 'seller and buyer told once each');
  });

  it('does not apply a payment that does not match what Holo asked for', async () => {
    const id = await sale(25);
    await openCheckout(stack, buyer, id);
    const session = (await sessionsOf(stack, id))[0]!;
    const short = await postStripeEvent(stack, completedSession(session, { amount_total: session.amount_cents - 1 }));
    assert.equal(short.body.outcome, 'amount_mismatch');
    const usd = await postStripeEvent(stack, completedSession(session, { currency: 'usd' }));
    assert.equal(usd.body.outcome, 'amount_mismatch');
    const unpaid = await postStripeEvent(stack, completedSession(session, { payment_status: 'unpaid' }));
    assert.equal(unpaid.body.outcome, 'not_paid_yet');
    const unknown = await postStripeEvent(stack, completedSession({ id: 'cs_test_not_ours', amount_cents: 100 }));
    assert.equal(unknown.body.outcome, 'unknown_session');
    const other = await postStripeEvent(stack, { type: 'customer.created', object: { id: 'cus_1', object: 'customer' } });
    assert.deepEqual([other.status, other.body.outcome], [200, 'ignored']);
    assert.equal(await statusOf(id), 'awaiting_payment');
    assert.ok(stack.logLines.some((l) => l.includes('a payment was not applied') && l.includes('amount_mismatch')));
  });
});

describe('cancelling a sale', () => {
  it('closes the open checkout at Stripe before payment, so the page can no longer be paid', async () => {
    const id = await sale();
    await openCheckout(stack, buyer, id);
    const cancelled = await call(buyer, 'POST', `/api/transactions/${id}/status`, { status: 'cancelled' });
    assert.equal(cancelled.body.status, 'cancelled');
    const { rows } = await stack.stores.pg.pool.query(
      'SELECT expired_at IS NOT NULL AS expired FROM checkout_sessions WHERE transaction_id = $1',
      [id],
    );
    assert.deepEqual(rows, [{ expired: true }]);
    assert.equal((await openCheckout(stack, buyer, id)).status, 409);
  });

  it('refunds a paid transaction through Stripe when it is cancelled', async () => {
    const id = await sale(50);
    await openCheckout(stack, buyer, id);
    await postStripeEvent(stack, completedSession((await sessionsOf(stack, id))[0]!));
    const cancelled = await call(seller, 'POST', `/api/transactions/${id}/status`, { status: 'cancelled' });
    assert.equal(cancelled.body.status, 'cancelled');
    const { rows } = await stack.stores.pg.pool.query('SELECT refund_id FROM checkout_sessions WHERE transaction_id = $1', [id]);
    assert.match(rows[0].refund_id, /^re_/);
  });
});
