// Shapes the sales service's transactions and bids (sales.ts) into the responses
// (schemas/marketplace.ts): a transaction without its parties' ids, a bid with the bidder's name as
// the caller may see it.
import type { z } from 'zod';
import type * as q from '../../sql/sales.js';
import type { BidList, BidOut, TransactionOut } from '../../schemas/marketplace.js';
import type { SeenBid } from './sales.js';

export const presentTransaction = ({ buyer_id: _b, seller_id: _s, ...t }: q.TransactionRow): z.infer<typeof TransactionOut> => t;

export function presentBid({ bid: b, bidder }: SeenBid): z.infer<typeof BidOut> {
  return { id: b.id, listing_id: b.listing_id, amount: b.amount, message: b.message, status: b.status, bidder, created_at: b.created_at };
}

export const presentBids = ({ items }: { items: SeenBid[] }): z.infer<typeof BidList> => ({ items: items.map(presentBid) });
