// How a listing is sold (spec: "Marketplace operations in detail", "Bid", "Transaction status"):
// buy-now, or a bid the seller accepts. Both lock the listing's row, check it is still for sale and
// create one transaction awaiting payment in the same database transaction, so of any number of
// buyers and accepts at the same moment exactly one wins and every other finds it sold.
import type { z } from 'zod';
import type { Db } from '../../sql/stores/db.js';
import { DomainError, NotFound } from '../../schemas/errors.js';
import type { BuyNowOut } from '../../schemas/marketplace.js';
import * as q from '../../sql/sales.js';
import { listingRecord } from '../../sql/listings.js';
import { buyerCharges } from './fees.js';
import { fromCents, toCents } from '../../schemas/money.js';
import { refuseIfBlocked } from './moderation.js';
import { recordNotice } from '../../ingest/events/notify.js';

export type Transaction = q.TransactionRow;
/** A bid with its bidder's name as the caller may see it (salesPresenter.ts shapes it). */
export type SeenBid = { bid: q.BidRow; bidder: string };

const unavailable = () => new DomainError('invalid', 'the listing is sold or expired', 'listing_unavailable');

/** Where the buyer pays for a transaction. */
export const checkoutPath = (transactionId: number) => `/api/transactions/${transactionId}/checkout`;

/** A new transaction for a locked, still-available listing; the listing is sold and its other bids closed. */
async function sell(
  tx: Db,
  listing: { id: number; seller_id: number },
  sale: { buyerId: number; amountCents: number; bidId: number | null; actorId: number },
): Promise<{ transactionId: number; handlingFeeCents: number; buyerTotalCents: number }> {
  const charges = buyerCharges(sale.amountCents);
  if (sale.bidId !== null) await q.acceptBid(tx, sale.bidId);
  await q.markListingSold(tx, listing.id);
  const [created] = await q.createTransaction(
    tx,
    listing.id,
    sale.bidId,
    sale.buyerId,
    listing.seller_id,
    sale.amountCents,
    'EUR',
    charges.handlingFeeCents,
    charges.buyerTotalCents,
    sale.actorId,
  );
  return { transactionId: created!.id, ...charges };
}

/** Buys a listing now; `variant`, when given, must be the listing's (case aside), else 409. */
export async function buyNow(db: Db, buyerId: number, listingId: number, variant?: string): Promise<z.infer<typeof BuyNowOut>> {
  return db.transaction(async (tx) => {
    const [listing] = await q.lockListingForSale(tx, listingId);
    if (!listing) throw new NotFound('Listing');
    if (!listing.buy_now_enabled) throw new DomainError('invalid', 'buy-now is turned off for this listing', 'buy_now_disabled');
    if (listing.seller_id === buyerId) throw new DomainError('invalid', 'this is your own listing', 'self_buy');
    await refuseIfBlocked(tx, listing.seller_id, buyerId, 'purchases');
    if (listing.status !== 'active' || listing.past_expiry) throw unavailable();
    if (variant !== undefined && variant.toLowerCase() !== listing.variant?.toLowerCase())
      throw new DomainError(
        'conflict',
        listing.variant === null
          ? `this listing names no variant; buy it without one`
          : `this listing is the ${listing.variant} variant, not ${variant}`,
      );
    const sold = await sell(tx, listing, { buyerId, amountCents: listing.price_cents, bidId: null, actorId: buyerId });
    return {
      ok: true as const,
      transaction_id: sold.transactionId,
      redirect_url: checkoutPath(sold.transactionId),
      amount: fromCents(listing.price_cents),
      currency: 'EUR' as const,
      buyer_total: fromCents(sold.buyerTotalCents),
      handling_fee: fromCents(sold.handlingFeeCents),
    };
  });
}

export async function placeBid(db: Db, bidderId: number, listingId: number, bid: { amount: number; message?: string }): Promise<SeenBid> {
  return db.transaction(async (tx) => {
    const [listing] = await q.lockListingForSale(tx, listingId);
    if (!listing) throw new NotFound('Listing');
    if (listing.seller_id === bidderId) throw new DomainError('invalid', 'you cannot bid on your own listing');
    if (!listing.accepts_offers) throw new DomainError('invalid', 'this listing does not take offers');
    await refuseIfBlocked(tx, listing.seller_id, bidderId, 'bids');
    if (listing.status !== 'active' || listing.past_expiry) throw new DomainError('conflict', 'the listing is sold or expired');
    const [created] = await q.insertBid(tx, listingId, bidderId, toCents(bid.amount), bid.message || null);
    const mine = (await q.bidsOfListing(tx, listingId)).find((b) => b.id === created!.id)!;
    const notice = {
      userId: listing.seller_id,
      kind: 'bid' as const,
      title: `New bid: EUR ${mine.amount.toFixed(2)}`,
      body: `${mine.bidder_username} bid EUR ${mine.amount.toFixed(2)} on your listing ${listingId}.${mine.message ? ` "${mine.message}"` : ''}`,
      data: { listing_id: listingId, bid_id: mine.id },
      email: null,
    };
    // Its pushes go out after commit (push_outbox): a device is told only of a bid that stands.
    await recordNotice(tx, notice);
    return { bid: mine, bidder: mine.bidder_username };
  });
}

/**
 * A listing's bids, highest first. The seller sees who bid; everyone else sees "bidder N" (N in
 * the order bidders first bid), except their own bids, which show their name.
 */
export async function bidsOf(db: Db, listingId: number, callerId: number | null): Promise<{ items: SeenBid[] }> {
  const [listing] = await listingRecord(db, listingId);
  if (!listing) throw new NotFound('Listing');
  const bids = await q.bidsOfListing(db, listingId);
  const order = [...new Set([...bids].sort((a, b) => a.id - b.id).map((b) => b.bidder_id))];
  const seesNames = callerId === listing.seller_id;
  return {
    items: bids.map((b) => ({
      bid: b,
      bidder: seesNames || b.bidder_id === callerId ? b.bidder_username : `bidder ${order.indexOf(b.bidder_id) + 1}`,
    })),
  };
}

export async function acceptBid(db: Db, sellerId: number, listingId: number, bidId: number): Promise<Transaction> {
  return db.transaction(async (tx) => {
    const [listing] = await q.lockListingForSale(tx, listingId);
    if (!listing) throw new NotFound('Listing');
    if (listing.seller_id !== sellerId) throw new DomainError('forbidden', 'only the seller accepts bids on a listing');
    const [bid] = await q.bidOfListing(tx, listingId, bidId);
    if (!bid) throw new NotFound('Bid');
    if (listing.status !== 'active' || listing.past_expiry || bid.status !== 'open')
      throw new DomainError('conflict', 'the listing is sold or expired', 'listing_unavailable');
    const { transactionId } = await sell(tx, listing, { buyerId: bid.bidder_id, amountCents: bid.amount_cents, bidId, actorId: sellerId });
    return (await q.transactionRecord(tx, transactionId))[0]!;
  });
}

/** A transaction, to its buyer or seller only (anyone else: 404, as if there were none). */
export async function transactionOf(db: Db, userId: number, transactionId: number): Promise<Transaction> {
  const [t] = await q.transactionRecord(db, transactionId);
  if (!t || (t.buyer_id !== userId && t.seller_id !== userId)) throw new NotFound('Transaction');
  return t;
}
