// Paying as Stripe would in the tests: the buyer opens the checkout (Stripe's mock server makes the
// session), then a checkout.session.completed event for that session arrives at the webhook,
// signed with the SDK's own test-header helper and the installation's webhook secret.
import Stripe from 'stripe';
import { embeddedWebhookSecret } from '../../sql/external/stripe.js';
import type { Stack } from './stack.js';
import { call, type Call } from './http.js';
import type { ResponseBody } from './routeTypes.js';

const signer = new Stripe('sk_test_holoTests');

export type Checkout = {
  status: number;
  location: string | null;
  body: Call<ResponseBody<'GET', `/api/transactions/${number}/checkout`>>['body'];
};

/**
 * GET …/checkout as a caller, without following the redirect to Stripe: a raw fetch, as the typed
 * call follows redirects (the 302 and its Location are what is tested).
 */
export async function openCheckout(stack: Stack, caller: { headers: Record<string, string> }, transactionId: number): Promise<Checkout> {
  const res = await fetch(`${stack.url}/api/transactions/${transactionId}/checkout`, { headers: caller.headers, redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), body: (await res.json()) as Checkout['body'] };
}

/** The checkout sessions Holo opened for a transaction, oldest first. */
export async function sessionsOf(stack: Stack, transactionId: number): Promise<{ id: string; amount_cents: number; url: string }[]> {
  const { rows } = await stack.stores.pg.pool.query(
    'SELECT id, amount_cents, url FROM checkout_sessions WHERE transaction_id = $1 ORDER BY created_at, id',
    [transactionId],
  );
  return rows;
}

let eventSeq = 0;

/** A Stripe event as Stripe sends it: JSON, signed over its exact bytes (or with another secret). */
export async function postStripeEvent(
  stack: Stack,
  event: { id?: string; type: string; object: Record<string, unknown> },
  opts: { secret?: string; signature?: string | null } = {},
) {
  const sent = {
    id: event.id ?? `evt_test_${process.pid}_${++eventSeq}`,
    object: 'event',
    type: event.type,
    created: Math.floor(Date.now() / 1000),
    data: { object: event.object },
  };
  // Signed over the bytes call sends: it serialises the same value with JSON.stringify.
  const payload = JSON.stringify(sent);
  const secret = opts.secret ?? (await embeddedWebhookSecret(stack.config));
  const signature = opts.signature === undefined ? signer.webhooks.generateTestHeaderString({ payload, secret }) : opts.signature;
  return call(stack, 'POST', '/api/payments/stripe/webhook', {
    body: sent,
    headers: signature === null ? {} : { 'Stripe-Signature': signature },
  });
}

/** checkout.session.completed for a session, paid in full unless said. */
export const completedSession = (session: { id: string; amount_cents: number }, over: Record<string, unknown> = {}) => ({
  type: 'checkout.session.completed',
  object: {
    id: session.id,
    object: 'checkout.session',
    mode: 'payment',
    payment_status: 'paid',
    status: 'complete',
    amount_total: session.amount_cents,
    currency: 'eur',
    payment_intent: `pi_test_${session.id.slice(-10)}`,
    ...over,
  },
});

/** The buyer pays a transaction: checkout, then Stripe's completed event. */
export async function payTransaction(stack: Stack, buyer: { headers: Record<string, string> }, transactionId: number): Promise<void> {
  const checkout = await openCheckout(stack, buyer, transactionId);
  if (checkout.status !== 302) throw new Error(`checkout answered ${checkout.status}: ${JSON.stringify(checkout.body)}`);
  const sessions = await sessionsOf(stack, transactionId);
  const paid = await postStripeEvent(stack, completedSession(sessions.at(-1)!));
  if (paid.body?.outcome !== 'paid') throw new Error(`the payment was not applied: ${JSON.stringify(paid)}`);
}
