// Shapes transactions and bids into the responses (schemas/marketplace.ts): a transaction without
// its parties' ids, a bid with the bidder's name as the caller may see it.
import type { z } from 'zod';
import type * as q from '../../sql/sales.js';
import type { BidOut, TransactionOut } from '../../schemas/marketplace.js';

export const presentTransaction = ({ buyer_id: _b, seller_id: _s, ...t }: q.TransactionRow): z.infer<typeof TransactionOut> => t;

export function presentBid(b: q.BidRow, bidder: string): z.infer<typeof BidOut> {
  return { id: b.id, listing_id: b.listing_id, amount: b.amount, message: b.message, status: b.status, bidder, created_at: b.created_at };
}
