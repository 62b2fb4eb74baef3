// Money to the cent (issue 34 §1), over HTTP on a real stack with stripe-mock: an amount with a
// third decimal is a 422 naming the field; at any price and either protection setting the fee
// parts and the payout add up to the price exactly, the buyer total is the price plus the handling
// fee, Stripe is asked for exactly the buyer total in cents, and a refund returns exactly that.
// Prices are drawn by fast-check as whole cents.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { accountWithKey, type KeyedAccount } from './support/accounts.js';
import { createTestCards } from './support/catalogue.js';
import { callerOf } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';
import { completedSession, openCheckout, postStripeEvent, sessionsOf } from './support/stripe.js';

let stack: Stack;
let seller: KeyedAccount;
let buyer: KeyedAccount;
let card: number;

const call = callerOf(() => stack);
/** An amount in an answer as whole cents; fails when it is not one. */
function centsOf(amount: number): number {
  const cents = Math.round(amount * 100);
  assert.ok(Math.abs(cents - amount * 100) < 1e-6, `${amount} is not a whole number of cents`);
  return cents;
}
/** Prices from a cent to a million euros, small ones (where rounding bites) as often as large. */
const priceCents = fc.oneof(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 1, max: 100_000_000 }));

before(async () => {
  stack = await startStack({ demo: 'none' });
  seller = await accountWithKey(stack, 'moneyseller', 'enterprise');
  buyer = await accountWithKey(stack, 'moneybuyer', 'enterprise');
  assert.equal((await call(seller, 'POST', '/seller/become', { display_name: 'Cent Shop', country: 'DE' })).status, 201);
  card = Object.values(await createTestCards(stack.stores.pg.pool, 'money-test', ['penny'])).map((c) => c.card)[0]!;
});
after(async () => {
  await stack?.close();
});

describe('an amount with more than two decimals', () => {
  it('is a 422 naming the field, in the fee preview, a listing, a bid, a collection entry and a wishlist item', async () => {
    for (const price of ['1.005', '1234.565']) {
      const preview = await call(null, 'GET', `/api/listings/fee-preview?price=${price}&image_protection=true`);
      assert.equal(preview.status, 422, price);
      assert.deepEqual(preview.body.detail[0].loc, ['query', 'price']);
    }
    const listing = await call(seller, 'POST', '/seller/listings', { card_id: card, price: 1.005, condition: 'NM' });
    assert.equal(listing.status, 422);
    assert.deepEqual(listing.body.detail[0].loc, ['body', 'price']);
    const open = await call(seller, 'POST', '/seller/listings', { card_id: card, price: 10, condition: 'NM', accepts_offers: true });
    const bid = await call(buyer, 'POST', `/seller/listings/${open.body.id}/bid`, { amount: 9.999 });
    assert.deepEqual([bid.status, bid.body.detail[0].loc], [422, ['body', 'amount']]);
    const entry = await call(buyer, 'POST', '/collection/add', { card_id: card, price_paid: 0.125 });
    assert.deepEqual([entry.status, entry.body.detail[0].loc], [422, ['body', 'price_paid']]);
    const wish = await call(buyer, 'POST', '/wishlist/add', { card_id: card, max_price: 3.333 });
    assert.deepEqual([wish.status, wish.body.detail[0].loc], [422, ['body', 'max_price']]);
    const document = (await call(null, 'GET', '/openapi.json')).body;
    assert.equal(document.components.schemas.CreateListing!.properties.price!.multipleOf, 0.01);
  });
});

describe("an amount or grade one float step off the document's multipleOf", () => {
  /** The double next to `x` towards +∞ (`up`) or −∞: what a client's arithmetic leaves beside a round value. */
  const nextTo = (x: number, up: boolean) => {
    const bits = new BigInt64Array(new Float64Array([x]).buffer);
    bits[0] = bits[0]! + (up ? 1n : -1n);
    return new Float64Array(bits.buffer)[0]!;
  };
  it('is a 422: 0.9999999999999999 and any price whose written form has a third decimal (fast-check)', async () => {
    for (const price of ['0.9999999999999999', '1.0000000000000002', '0.30000000000000004']) {
      const preview = await call(null, 'GET', `/api/listings/fee-preview?price=${price}`);
      assert.deepEqual([preview.status, preview.body.detail?.[0]?.loc], [422, ['query', 'price']], price);
    }
    const listing = await call(seller, 'POST', '/seller/listings', { card_id: card, price: 0.9999999999999999, condition: 'NM' });
    assert.deepEqual([listing.status, listing.body.detail?.[0]?.loc], [422, ['body', 'price']]);
    const prices = fc.oneof(
      priceCents.map((c) => c / 100),
      priceCents.chain((c) => fc.boolean().map((up) => nextTo(c / 100, up))),
      fc.double({ min: 0.01, max: 1_000_000, noNaN: true }),
    );
    await fc.assert(
      fc.asyncProperty(prices, async (price) => {
        const written = String(price);
        const wholeCents = (written.split('.')[1] ?? '').length <= 2;
        const res = await call(null, 'GET', `/api/listings/fee-preview?price=${written}`);
        assert.equal(res.status, wholeCents ? 200 : 422, `${written}: ${JSON.stringify(res.body)}`);
      }),
      { numRuns: 150 },
    );
  });

  it('a grade of 7.499999999999999 is a 422, 7.5 is kept', async () => {
    const entry = (grade: number) => ({ card_id: card, graded: true, grading_company: 'PSA', grade });
    const off = await call(buyer, 'POST', '/collection/add', entry(nextTo(7.5, false)));
    assert.deepEqual([off.status, off.body.detail?.[0]?.loc], [422, ['body', 'grade']]);
    const half = await call(buyer, 'POST', '/collection/add', entry(7.5));
    assert.deepEqual([half.status, half.body.grade], [201, 7.5]);
  });
});

describe('fees (fast-check)', () => {
  it('at any price and either protection setting: fee parts + payout = price, to the cent', async () => {
    await fc.assert(
      fc.asyncProperty(priceCents, fc.boolean(), async (cents, protection) => {
        const res = await call(null, 'GET', `/api/listings/fee-preview?price=${cents / 100}&image_protection=${protection}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const f = res.body;
        const parts = centsOf(f.marketplace_amt) + centsOf(f.image_protection_amt);
        assert.equal(centsOf(f.total_amt), parts);
        assert.equal(parts + centsOf(f.seller_payout), cents);
        if (!protection) assert.equal(f.image_protection_amt, 0);
      }),
      { numRuns: 300 },
    );
  });

  it('the examples: 1.01 and 1234.57 split exactly', async () => {
    for (const price of [1.01, 1234.57, 1000000]) {
      const f = (await call(null, 'GET', `/api/listings/fee-preview?price=${price}&image_protection=true`)).body;
      assert.equal(centsOf(f.total_amt) + centsOf(f.seller_payout), centsOf(price), String(price));
    }
  });
});

describe('a sale from the listing to Stripe and back (fast-check)', () => {
  it('buyer total = price + handling fee; Stripe charges the buyer total in cents; a refund returns exactly what was paid', async () => {
    await fc.assert(
      fc.asyncProperty(priceCents, async (cents) => {
        const listing = await call(seller, 'POST', '/seller/listings', { card_id: card, price: cents / 100, condition: 'NM' });
        assert.equal(listing.status, 201, JSON.stringify(listing.body));
        assert.equal(centsOf(listing.body.price), cents);
        const bought = await call(buyer, 'POST', `/api/listings/${listing.body.id}/buy-now`);
        assert.equal(bought.status, 200, JSON.stringify(bought.body));
        const total = centsOf(bought.body.buyer_total);
        assert.equal(centsOf(bought.body.amount), cents);
        assert.equal(total, cents + centsOf(bought.body.handling_fee));
        const id = bought.body.transaction_id;
        const read = (await call(buyer, 'GET', `/api/transactions/${id}`)).body;
        assert.deepEqual(
          [read.amount, read.handling_fee, read.buyer_total],
          [bought.body.amount, bought.body.handling_fee, bought.body.buyer_total],
        );

        assert.equal((await openCheckout(stack, buyer, id)).status, 302);
        const [session] = await sessionsOf(stack, id);
        assert.equal(session!.amount_cents, total, 'Stripe is asked for the buyer total');
        assert.equal((await postStripeEvent(stack, completedSession(session!))).body.outcome, 'paid');
        assert.equal((await call(seller, 'POST', `/api/transactions/${id}/status`, { status: 'cancelled' })).body.status, 'cancelled');
        const { rows } = await stack.stores.pg.pool.query('SELECT refund_cents FROM checkout_sessions WHERE id = $1', [session!.id]);
        assert.equal(rows[0].refund_cents, total, 'the refund returns what was paid');
      }),
      { numRuns: 25 },
    );
  });
});
