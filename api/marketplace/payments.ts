// Paying for a transaction (issue 15 §6): the buyer is sent to a Stripe Checkout session, and
// Stripe's signed `checkout.session.completed` event moves the transaction to paid. A transaction
// has one open session at a time (a second click reuses it, so a buyer cannot pay twice through
// two pages), and every event is processed once however often Stripe delivers it.
import Stripe from 'stripe';
import type { Db } from '../../sql/stores/db.js';
import { PaymentsUnavailable, type Payments } from '../../sql/external/stripe.js';
import type { Logger } from '../../sql/runtime/log.js';
import { DomainError, NotFound } from '../../schemas/errors.js';
import * as q from '../../sql/sales.js';
import * as pay from '../../sql/payments.js';
import { accountById } from '../../sql/accounts.js';
import type { STRIPE_EVENT_OUTCOMES } from '../../schemas/payments.js';
import { notifyParty } from './partyNotice.js';
import { toCents } from '../../schemas/money.js';

/** How long a checkout session can be paid (Stripe's minimum is 30 minutes). */
const SESSION_MINUTES = 60;
/** A session with less than this left is not handed out again: the buyer needs time to pay. */
const REUSE_MIN_SECONDS = 10 * 60;

/** The Stripe Checkout page where the buyer pays for an own transaction awaiting payment. */
export async function checkoutUrl(
  deps: { db: Db; payments: Payments; log: Logger; siteOrigin: string },
  buyerId: number,
  transactionId: number,
): Promise<string> {
  return deps.db.transaction(async (tx) => {
    // The row lock makes concurrent clicks take turns: the second finds the first's session.
    const [t] = await q.lockTransaction(tx, transactionId);
    if (!t || (t.buyer_id !== buyerId && t.seller_id !== buyerId)) throw new NotFound('Transaction');
    if (t.buyer_id !== buyerId) throw new DomainError('forbidden', 'the buyer pays for a transaction, not the seller');
    if (t.status !== 'awaiting_payment') throw new DomainError('conflict', `a transaction that is ${t.status} is not awaiting payment`);
    const [open] = await pay.openCheckoutSession(tx, transactionId, REUSE_MIN_SECONDS);
    if (open) return open.url;

    const [record] = await q.transactionRecord(tx, transactionId);
    const [buyer] = await accountById(tx, buyerId);
    const [sessionsSoFar] = await pay.countCheckoutSessions(tx, transactionId);
    const r = record!;
    const lineItems = [
      { name: r.card_name, description: `Holo marketplace listing ${r.listing_id}`, cents: toCents(r.amount) },
      ...(r.handling_fee > 0 ? [{ name: 'Handling fee', description: undefined, cents: toCents(r.handling_fee) }] : []),
    ];
    const amountCents = lineItems.reduce((sum, item) => sum + item.cents, 0);
    const expiresAt = new Date(Date.now() + SESSION_MINUTES * 60_000);
    const back = (outcome: string) => `${deps.siteOrigin}/transactions/${transactionId}?checkout=${outcome}`;
    const session = await callStripe(deps, (stripe) =>
      stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: String(transactionId),
          metadata: { transaction_id: String(transactionId) },
          payment_intent_data: { metadata: { transaction_id: String(transactionId) } },
          ...(buyer?.email ? { customer_email: buyer.email } : {}),
          line_items: lineItems.map((item) => ({
            quantity: 1,
            price_data: { currency: 'eur', unit_amount: item.cents, product_data: { name: item.name, description: item.description } },
          })),
          expires_at: Math.floor(expiresAt.getTime() / 1000),
          success_url: back('success'),
          cancel_url: back('cancelled'),
        },
        // A network retry of the SDK, or of this request after a lost answer, gets the same session.
        { idempotencyKey: `holo-checkout-${transactionId}-${sessionsSoFar!.n}` },
      ),
    );
    if (!session.url) throw new PaymentsUnavailable('the payment provider answered a checkout session without a page to pay on');
    await pay.insertCheckoutSession(tx, session.id, transactionId, session.url, amountCents, 'eur', expiresAt);
    return session.url;
  });
}

/**
 * Before a transaction is cancelled, the money side: a buyer can no longer pay on a checkout page
 * of it (its open sessions are expired at Stripe; one being paid this moment refuses, and so does
 * the cancellation), and a payment that arrived is refunded. Runs inside the cancelling database
 * transaction: when Stripe fails, nothing is cancelled, and the refund's idempotency key makes a
 * second attempt find the first refund.
 */
export async function releasePayment(
  deps: { payments: Payments; log: Logger },
  tx: Db,
  transactionId: number,
  status: 'awaiting_payment' | 'paid',
): Promise<void> {
  if (status === 'awaiting_payment') {
    for (const { id } of await pay.unsettledCheckoutSessions(tx, transactionId)) {
      await callStripe(deps, (stripe) => stripe.checkout.sessions.expire(id), {
        refused: 'the buyer is paying for this transaction right now; once the payment settles, cancelling refunds it',
      });
      await pay.expireCheckoutSession(tx, id);
    }
    return;
  }
  const [paid] = await pay.paidCheckoutSession(tx, transactionId);
  if (!paid?.payment_intent || paid.refund_id) return;
  const paymentIntent = paid.payment_intent;
  const refund = await callStripe(deps, (stripe) =>
    stripe.refunds.create(
      // The whole payment, named: what Stripe returns is exactly what the buyer paid.
      { payment_intent: paymentIntent, amount: paid.amount_cents, metadata: { transaction_id: String(transactionId) } },
      { idempotencyKey: `holo-refund-${transactionId}` },
    ),
  );
  await pay.recordRefund(tx, paid.id, refund.id, refund.amount);
}

/**
 * Stripe's failures (unreachable, rate limiting, an error of its own) as the 503 a client can
 * retry; a request Stripe refuses for the state of the object is the caller's 409 when it says so.
 */
async function callStripe<T>(
  deps: { payments: Payments; log: Logger },
  call: (stripe: Stripe) => Promise<T>,
  opts: { refused?: string } = {},
): Promise<T> {
  const stripe = await deps.payments.client();
  try {
    return await call(stripe);
  } catch (err) {
    if (!(err instanceof Stripe.errors.StripeError)) throw err;
    if (opts.refused && err instanceof Stripe.errors.StripeInvalidRequestError) throw new DomainError('conflict', opts.refused);
    deps.log.warn('payments: stripe call failed', { type: err.type, code: err.code, status: err.statusCode, message: err.message });
    throw new PaymentsUnavailable(`the payment provider did not accept the request (${err.type})`);
  }
}

type StripeEventOutcome = (typeof STRIPE_EVENT_OUTCOMES)[number];

/**
 * One webhook delivery from Stripe: its signature checked (400 otherwise), then processed once in
 * one database transaction with the record of its id, so a crash before commit leaves it for
 * Stripe's retry and a retry after commit changes nothing.
 */
export async function receiveStripeEvent(
  deps: { db: Db; payments: Payments; log: Logger },
  rawBody: Buffer,
  signature: string | undefined,
): Promise<{ received: true; outcome: StripeEventOutcome }> {
  if (!signature) throw new DomainError('invalid', 'missing the Stripe-Signature header');
  let event: Stripe.Event;
  try {
    event = deps.payments.verifyEvent(rawBody, signature);
  } catch (err) {
    if (err instanceof PaymentsUnavailable) throw err;
    throw new DomainError('invalid', 'the Stripe-Signature does not match this body (or is too old)');
  }
  const outcome = await deps.db.transaction(async (tx): Promise<StripeEventOutcome> => {
    if ((await pay.claimStripeEvent(tx, event.id, event.type)).length === 0) return 'duplicate';
    const result = await settle(tx, event);
    await pay.recordStripeEventOutcome(tx, event.id, result);
    return result;
  });
  // Money that arrived for nothing it can pay: an operator refunds it in Stripe's dashboard.
  if (outcome === 'amount_mismatch' || outcome === 'unknown_session' || outcome === 'paid_after_cancel')
    deps.log.error('payments: a payment was not applied; refund it', { event: event.id, type: event.type, outcome });
  return { received: true, outcome };
}

async function settle(tx: Db, event: Stripe.Event): Promise<StripeEventOutcome> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return payFor(tx, event.data.object, `stripe:${event.id}`);
    case 'checkout.session.expired': {
      await pay.expireCheckoutSession(tx, event.data.object.id);
      return 'session_expired';
    }
    default:
      return 'ignored';
  }
}

async function payFor(tx: Db, session: Stripe.Checkout.Session, source: string): Promise<StripeEventOutcome> {
  // A delayed method (SEPA debit …) completes the session unpaid; async_payment_succeeded follows.
  if (session.payment_status !== 'paid') return 'not_paid_yet';
  const [ours] = await pay.lockCheckoutSession(tx, session.id);
  if (!ours) return 'unknown_session';
  if (session.amount_total !== ours.amount_cents || session.currency?.toLowerCase() !== ours.currency) return 'amount_mismatch';
  if (ours.completed) return 'already_settled';
  const paymentIntent = typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
  await pay.completeCheckoutSession(tx, session.id, paymentIntent);
  const [t] = await q.lockTransaction(tx, ours.transaction_id);
  if (t!.status === 'cancelled') return 'paid_after_cancel';
  if ((await pay.markTransactionPaid(tx, t!.id, source)).length === 0) return 'already_settled';
  await notifyParty(
    tx,
    t!.seller_id,
    t!.id,
    `Transaction ${t!.id}: paid`,
    `The buyer paid for transaction ${t!.id}. Ship the card and record its tracking number.`,
  );
  await notifyParty(
    tx,
    t!.buyer_id,
    t!.id,
    `Transaction ${t!.id}: paid`,
    `Your payment for transaction ${t!.id} arrived; the seller ships next.`,
  );
  return 'paid';
}
