// Sales (spec: "Marketplace operations in detail", "Bid", "Transaction status", "Reputation"):
// buy-now and bids, the transaction they create and its flow, ratings; one typed function per
// query file of queries/sales/.
import { z } from 'zod';
import { Reputation, TRANSACTION_STATUSES, TransactionOut } from '../schemas/marketplace.js';
import { pgAmount } from '../schemas/money.js';
import { pgQuery, pgStatement, rows } from './typedQuery.js';

const ListingForSale = z.object({
  id: z.number().int(),
  seller_id: z.number().int(),
  status: z.string(),
  past_expiry: z.boolean(),
  buy_now_enabled: z.boolean(),
  accepts_offers: z.boolean(),
  price_cents: z.number().int(),
  variant: z.string().nullable(),
});
/** What deciding a sale needs, with the listing locked until the transaction ends. */
export const lockListingForSale = pgQuery<[listingId: number], typeof ListingForSale>('sales/listing_lock_for_sale', ListingForSale);
/** Marks a listing sold and closes its open bids. */
export const markListingSold = pgStatement<[listingId: number]>('sales/listing_mark_sold');
/** A new transaction awaiting payment with its first event; its id. */
export const createTransaction = pgQuery<
  [
    listingId: number,
    bidId: number | null,
    buyerId: number,
    sellerId: number,
    amountCents: number,
    currency: string,
    handlingFeeCents: number,
    buyerTotalCents: number,
    actorId: number,
  ],
  typeof rows.id
>('sales/transaction_create', rows.id);
export const TransactionRow = TransactionOut.extend({
  buyer_id: z.number().int(),
  seller_id: z.number().int(),
  amount: pgAmount,
  handling_fee: pgAmount,
  buyer_total: pgAmount,
});
export type TransactionRow = z.infer<typeof TransactionRow>;
/** One transaction as its parties read it. */
export const transactionRecord = pgQuery<[transactionId: number], typeof TransactionRow>('sales/transaction_record', TransactionRow);

/** A new open bid; its id. */
export const insertBid = pgQuery<[listingId: number, bidderId: number, amountCents: number, message: string | null], typeof rows.id>(
  'sales/bid_create',
  rows.id,
);
const BidRow = z.object({
  id: z.number().int(),
  listing_id: z.number().int(),
  bidder_id: z.number().int(),
  bidder_username: z.string(),
  amount: pgAmount,
  message: z.string().nullable(),
  status: z.enum(['open', 'accepted', 'closed']),
  created_at: z.string(),
});
export type BidRow = z.infer<typeof BidRow>;
/** A listing's bids, highest first. */
export const bidsOfListing = pgQuery<[listingId: number], typeof BidRow>('sales/bids_of_listing', BidRow);
const BidState = z.object({ id: z.number().int(), bidder_id: z.number().int(), amount_cents: z.number().int(), status: z.string() });
/** One bid of a listing. */
export const bidOfListing = pgQuery<[listingId: number, bidId: number], typeof BidState>('sales/bid_of_listing', BidState);
/** Marks a bid accepted. */
export const acceptBid = pgStatement<[bidId: number]>('sales/bid_accept');

const LockedTransaction = z.object({
  id: z.number().int(),
  listing_id: z.number().int(),
  buyer_id: z.number().int(),
  seller_id: z.number().int(),
  status: z.enum(TRANSACTION_STATUSES),
});
/** A transaction's parties and state, locked until the transaction ends. */
export const lockTransaction = pgQuery<[transactionId: number], typeof LockedTransaction>('sales/transaction_lock', LockedTransaction);
/** Moves a transaction between two states with who moved it; its id when it was in `from`. */
export const moveTransaction = pgQuery<[transactionId: number, to: string, actorId: number, from: string], typeof rows.id>(
  'sales/transaction_move',
  rows.id,
);
/** Records a shipment's carrier and tracking number. */
export const recordTracking = pgStatement<[transactionId: number, carrier: string, trackingNumber: string]>('sales/transaction_tracking');
/** Gives a listing whose sale was cancelled back to the market (unless expired). */
export const reopenListing = pgStatement<[listingId: number]>('sales/listing_reopen');
/** A party's rating; its id, or none when this party rated already. */
export const rateTransaction = pgQuery<
  [transactionId: number, raterId: number, rateeId: number, rating: number, review: string | null],
  typeof rows.id
>('sales/transaction_rate', rows.id);
const ReputationRow = z.object({ user_id: z.number().int(), avg: z.number(), count: z.number().int() });
/** What a user received (none when there is no such user). */
export const reputationOf = pgQuery<[username: string], typeof ReputationRow>('sales/reputation_of', ReputationRow);
const Review = Reputation.shape.recent_reviews.element;
/** The newest ratings a user received. */
export const recentReviews = pgQuery<[userId: number, limit: number], typeof Review>('sales/reputation_recent_reviews', Review);
