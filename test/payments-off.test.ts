// A production server without Stripe configured refuses to take money instead of faking it (its
// own test file: chDB opens one data directory per process, so one stack per file).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountWithKey } from './support/accounts.js';
import { createTestCards } from './support/catalogue.js';
import { callAs } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';
import { completedSession, openCheckout, postStripeEvent } from './support/stripe.js';

let prod: Stack;

before(async () => {
  prod = await startStack({ demo: 'none', env: { NODE_ENV: 'production' } });
});
after(async () => {
  await prod?.close();
});

describe('a production server without Stripe', () => {
  it('refuses checkout clearly with 503 payments_unavailable instead of taking or faking money', async () => {
    const s = await accountWithKey(prod, 'offseller', 'enterprise');
    const b = await accountWithKey(prod, 'offbuyer', 'enterprise');
    await callAs(prod, s, 'POST', '/seller/become', { display_name: 'Off', country: 'FR' });
    const offCard = Object.values(await createTestCards(prod.stores.pg.pool, 'pay-off', ['charm'])).map((c) => c.card)[0]!;
    const listing = await callAs(prod, s, 'POST', '/seller/listings', { card_id: offCard, price: 10, condition: 'NM' });
    const bought = await callAs(prod, b, 'POST', `/api/listings/${listing.body.id}/buy-now`);
    const checkout = await openCheckout(prod, b, bought.body.transaction_id);
    assert.equal(checkout.status, 503);
    assert.equal(checkout.body.error, 'payments_unavailable');
    assert.match(checkout.body.detail, /not configured/);
    const webhook = await postStripeEvent(prod, completedSession({ id: 'cs_test_x', amount_cents: 1030 }), { secret: 'whsec_any' });
    assert.equal(webhook.status, 503);
    assert.equal((await callAs(prod, b, 'GET', `/api/transactions/${bought.body.transaction_id}`)).body.status, 'awaiting_payment');
  });
});
