// Payments (issue 15 §6): checkout sessions of transactions and the Stripe events that settle them.
import { z } from 'zod';
import { pgQuery, pgStatement, rows } from './typedQuery.js';

const OpenSession = z.object({ id: z.string(), url: z.string() });
/** A transaction's newest checkout session with at least `minSecondsLeft` to run, if any. */
export const openCheckoutSession = pgQuery<[transactionId: number, minSecondsLeft: number], typeof OpenSession>(
  'payments/checkout_session_open',
  OpenSession,
);
/** How many checkout sessions a transaction has had. */
export const countCheckoutSessions = pgQuery<[transactionId: number], typeof rows.count>('payments/checkout_session_count', rows.count);
/** Keeps a checkout session Stripe created. */
export const insertCheckoutSession =
  pgStatement<[sessionId: string, transactionId: number, url: string, amountCents: number, currency: string, expiresAt: Date]>(
    'payments/checkout_session_create',
  );
const LockedSession = z.object({
  id: z.string(),
  transaction_id: z.number().int(),
  amount_cents: z.number().int(),
  currency: z.string(),
  completed: z.boolean(),
});
/** A checkout session and what it charges, locked until the transaction ends. */
export const lockCheckoutSession = pgQuery<[sessionId: string], typeof LockedSession>('payments/checkout_session_lock', LockedSession);
/** Records a session's payment. */
export const completeCheckoutSession = pgStatement<[sessionId: string, paymentIntent: string | null]>('payments/checkout_session_complete');
/** Records that a session can no longer be paid. */
export const expireCheckoutSession = pgStatement<[sessionId: string]>('payments/checkout_session_expire');

const ClaimedEvent = z.object({ id: z.string() });
/** Claims a Stripe event; none when it was delivered before. */
export const claimStripeEvent = pgQuery<[eventId: string, type: string], typeof ClaimedEvent>('payments/stripe_event_claim', ClaimedEvent);
/** What processing an event did. */
export const recordStripeEventOutcome = pgStatement<[eventId: string, outcome: string]>('payments/stripe_event_outcome');
/** Moves a transaction awaiting payment to paid on the provider's word; its id when it was awaiting payment. */
export const markTransactionPaid = pgQuery<[transactionId: number, source: string], typeof rows.id>('payments/transaction_paid', rows.id);

const SessionId = z.object({ id: z.string() });
/** A transaction's checkout sessions that may still be paid. */
export const unsettledCheckoutSessions = pgQuery<[transactionId: number], typeof SessionId>(
  'payments/checkout_sessions_unsettled',
  SessionId,
);
const PaidSession = z.object({
  id: z.string(),
  payment_intent: z.string().nullable(),
  refund_id: z.string().nullable(),
  amount_cents: z.number().int(),
});
/** The session that paid for a transaction, if any. */
export const paidCheckoutSession = pgQuery<[transactionId: number], typeof PaidSession>('payments/checkout_session_paid', PaidSession);
/** Records a refund of a session's payment and what it returned. */
export const recordRefund = pgStatement<[sessionId: string, refundId: string, refundCents: number]>('payments/checkout_session_refunded');
