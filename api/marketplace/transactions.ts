// A transaction after the sale (spec: "Transaction status", "Submit tracking", "Rate a
// transaction", "Reputation"). Who may make each move is ours to decide (the spec leaves it open):
//   awaiting_payment → paid        the payment provider: Stripe's signed event once the buyer paid
//                                  at the checkout (api/marketplace/payments.ts); never a request
//   paid → shipped                 the seller (tracking may come with it: POST …/tracking)
//   shipped → delivered            the buyer (confirms receipt)
//   delivered → completed          the buyer (accepts the card)
//   awaiting_payment | paid → cancelled                 either party, before shipping; the listing opens
//                                                       again, open checkout pages close, a payment is refunded
//   paid | shipped | delivered → disputed               either party, once money has moved
// Any other move is 409 (not in the flow from the current state) or 403 (the other party's move).
// Every move is written with its actor and time and notifies the other party (notification and
// e-mail). After delivery each party may rate the other once.
import type { z } from 'zod';
import type { Db } from '../../sql/stores/db.js';
import { DomainError, NotFound } from '../../schemas/errors.js';
import type { RatingBody, Reputation, TRANSACTION_STATUSES } from '../../schemas/marketplace.js';
import * as q from '../../sql/sales.js';
import { notifyParty } from './partyNotice.js';
import { transactionOf, type Transaction } from './sales.js';
import { releasePayment } from './payments.js';
import type { Payments } from '../../sql/external/stripe.js';
import type { Logger } from '../../sql/runtime/log.js';

type Status = (typeof TRANSACTION_STATUSES)[number];
type Party = 'buyer' | 'seller';

/** The moves of the flow: from → to, and which party makes it. */
const MOVES: { from: Status[]; to: Status; by: Party[] }[] = [
  { from: ['awaiting_payment'], to: 'paid', by: [] },
  { from: ['paid'], to: 'shipped', by: ['seller'] },
  { from: ['shipped'], to: 'delivered', by: ['buyer'] },
  { from: ['delivered'], to: 'completed', by: ['buyer'] },
  { from: ['awaiting_payment', 'paid'], to: 'cancelled', by: ['buyer', 'seller'] },
  { from: ['paid', 'shipped', 'delivered'], to: 'disputed', by: ['buyer', 'seller'] },
];

const RECENT_REVIEWS = 10;

/** Locks a transaction for one of its parties; anyone else finds none (404). */
async function lockForParty(tx: Db, userId: number, transactionId: number) {
  const [t] = await q.lockTransaction(tx, transactionId);
  if (!t || (t.buyer_id !== userId && t.seller_id !== userId)) throw new NotFound('Transaction');
  const party: Party = t.buyer_id === userId ? 'buyer' : 'seller';
  return { t, party, other: party === 'buyer' ? t.seller_id : t.buyer_id };
}

export async function moveTransaction(
  deps: { db: Db; payments: Payments; log: Logger },
  userId: number,
  transactionId: number,
  to: Status,
): Promise<Transaction> {
  await deps.db.transaction(async (tx) => {
    const { t, party, other } = await lockForParty(tx, userId, transactionId);
    const move = MOVES.find((m) => m.to === to && m.from.includes(t.status));
    if (!move) throw new DomainError('conflict', `a transaction that is ${t.status} cannot become ${to}`);
    if (move.by.length === 0)
      throw new DomainError(
        'conflict',
        `a transaction becomes paid when its payment arrives: pay at GET /api/transactions/${transactionId}/checkout`,
        'payment_required',
      );
    if (!move.by.includes(party)) throw new DomainError('forbidden', `the ${move.by.join(' or ')} makes this move, not the ${party}`);
    if (to === 'cancelled') await releasePayment(deps, tx, transactionId, t.status as 'awaiting_payment' | 'paid');
    await q.moveTransaction(tx, transactionId, to, userId, t.status);
    if (to === 'cancelled') await q.reopenListing(tx, t.listing_id);
    await notifyParty(
      tx,
      other,
      transactionId,
      `Transaction ${transactionId}: ${to.replace('_', ' ')}`,
      `The ${party} marked transaction ${transactionId} ${to.replace('_', ' ')}.`,
    );
  });
  return transactionOf(deps.db, userId, transactionId);
}

/** The seller records the shipment; a paid transaction becomes shipped with it. */
export async function submitTracking(
  db: Db,
  userId: number,
  transactionId: number,
  tracking: { carrier: string; tracking_number: string },
): Promise<Transaction> {
  await db.transaction(async (tx) => {
    const { t, party, other } = await lockForParty(tx, userId, transactionId);
    if (party !== 'seller') throw new DomainError('forbidden', 'the seller records the shipment');
    if (t.status !== 'paid' && t.status !== 'shipped')
      throw new DomainError('conflict', `a transaction that is ${t.status} is not shipped`);
    await q.recordTracking(tx, transactionId, tracking.carrier, tracking.tracking_number);
    if (t.status === 'paid') await q.moveTransaction(tx, transactionId, 'shipped', userId, 'paid');
    await notifyParty(
      tx,
      other,
      transactionId,
      `Transaction ${transactionId}: shipped`,
      `Shipped with ${tracking.carrier}, tracking number ${tracking.tracking_number}.`,
    );
  });
  return transactionOf(db, userId, transactionId);
}

/** Each party rates the other once, after delivery (a second rating: 409). */
export async function rateTransaction(
  db: Db,
  userId: number,
  transactionId: number,
  rating: z.output<typeof RatingBody>,
): Promise<{ ok: true }> {
  return db.transaction(async (tx) => {
    const { t, other } = await lockForParty(tx, userId, transactionId);
    if (t.status !== 'delivered' && t.status !== 'completed') throw new DomainError('conflict', 'a transaction is rated after delivery');
    if ((await q.rateTransaction(tx, transactionId, userId, other, rating.rating, rating.review || null)).length === 0)
      throw new DomainError('conflict', 'you rated this transaction already');
    return { ok: true as const };
  });
}

export async function reputation(db: Db, username: string): Promise<z.infer<typeof Reputation>> {
  const [r] = await q.reputationOf(db, username);
  if (!r) throw new NotFound('User');
  return { avg: Math.round(r.avg * 100) / 100, count: r.count, recent_reviews: await q.recentReviews(db, r.user_id, RECENT_REVIEWS) };
}
