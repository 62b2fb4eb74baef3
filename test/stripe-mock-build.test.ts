// stripe-mock is built when Holo opens its stores, beside the Temporal CLI (issue 34 §4), not on
// the first payment: on a machine without it in the tool cache (here an empty cache of the test's
// own), it is there before anyone pays, and the first checkout finds it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { accountWithKey } from './support/accounts.js';
import { createTestCards } from './support/catalogue.js';
import { callAs } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';
import { openCheckout } from './support/stripe.js';
import { until } from './support/until.js';

let stack: Stack;
const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'holo-tool-cache-'));
const previousCache = process.env.XDG_CACHE_HOME;
const previousGoCache = process.env.GOCACHE;

before(async () => {
  // Holo's tool cache is empty; Go's compile cache stays where it is (by default it too lives under
  // XDG_CACHE_HOME): what is under test is that Holo builds its tool at start, not Go compiling
  // stripe-mock's packages from nothing (a minute of this machine's two cores, repeated every run).
  process.env.GOCACHE = execFileSync('go', ['env', 'GOCACHE'], { encoding: 'utf8' }).trim();
  process.env.XDG_CACHE_HOME = cache;
  stack = await startStack({ demo: 'none' });
});
after(async () => {
  await stack?.close();
  if (previousCache === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = previousCache;
  if (previousGoCache === undefined) delete process.env.GOCACHE;
  else process.env.GOCACHE = previousGoCache;
  fs.rmSync(cache, { recursive: true, force: true });
});

describe('stripe-mock at start', () => {
  it('is built into an empty tool cache before any payment, and the first checkout works', async () => {
    const bin = path.join(cache, 'holo', 'bin', 'stripe-mock');
    await until('stripe-mock in the tool cache', () => fs.existsSync(bin), 300_000);
    const seller = await accountWithKey(stack, 'buildseller', 'enterprise');
    const buyer = await accountWithKey(stack, 'buildbuyer', 'enterprise');
    assert.equal((await callAs(stack, seller, 'POST', '/seller/become', { display_name: 'Build Shop', country: 'DE' })).status, 201);
    const card = Object.values(await createTestCards(stack.stores.pg.pool, 'build-test', ['gear'])).map((c) => c.card)[0]!;
    const listing = await callAs(stack, seller, 'POST', '/seller/listings', { card_id: card, price: 3, condition: 'NM' });
    const bought = await callAs(stack, buyer, 'POST', `/api/listings/${listing.body.id}/buy-now`);
    const checkout = await openCheckout(stack, buyer, bought.body.transaction_id);
    assert.equal(checkout.status, 302, JSON.stringify(checkout.body));
  });
});
