// Sales (spec: "Marketplace operations in detail", the bid rows of "Named paths"): buy-now, bids
// and their acceptance, and the transaction they create. Ours: GET /api/transactions/{id} and the
// checkout path a buy-now answers with.
import type { AppDeps } from '../deps.js';
import { HttpError } from '../http/errors.js';
import { defineRoute } from '../http/route.js';
import { acceptBid, bidsOf, buyNow, placeBid, transactionOf } from '../marketplace/sales.js';
import {
  BidBody,
  BidIdParams,
  BidList,
  BidOut,
  BuyNowBody,
  BuyNowOut,
  ListingIdParams,
  TransactionIdParams,
  TransactionOut,
} from '../../schemas/marketplace.js';
import { accountOf, callerAccountOf } from './auth.js';

const tags = ['sales'];

export const saleRoutes = (deps: AppDeps) => [
  defineRoute({
    method: 'post',
    path: '/api/listings/{listing_id}/buy-now',
    summary: 'Buy a listing now: a transaction awaiting payment',
    description:
      'The listing must have buy_now_enabled. Marks it sold and answers where to pay. Refusals carry `error`: 400 buy_now_disabled, 400 self_buy (own listing), 400 listing_unavailable (sold or expired); 404 no such listing. Of any number of buyers at once, exactly one gets the listing.',
    tags,
    access: 'auth',
    params: ListingIdParams,
    body: BuyNowBody,
    response: BuyNowOut,
    errors: [400, 404],
    handler: async ({ params, ctx }) => buyNow(deps.db, accountOf(ctx).id, params.listing_id),
  }),
  defineRoute({
    method: 'post',
    path: '/seller/listings/{listing_id}/bid',
    summary: 'Bid on a listing that takes offers',
    description:
      'Amount in EUR, message at most 500 characters. Not on an own listing (400) nor one without offers (400); sold or expired: 409.',
    tags,
    access: 'auth',
    params: ListingIdParams,
    body: BidBody,
    response: BidOut,
    status: 201,
    errors: [400, 404, 409],
    handler: async ({ params, body, ctx }) => placeBid(deps.db, accountOf(ctx).id, params.listing_id, body),
  }),
  defineRoute({
    method: 'get',
    path: '/seller/listings/{listing_id}/bids',
    summary: "A listing's bids, highest first",
    description: "Bidders are anonymised ('bidder N') except to the seller, and to each bidder for their own bids.",
    tags,
    params: ListingIdParams,
    response: BidList,
    errors: [404],
    handler: async ({ params, ctx }) => bidsOf(deps.db, params.listing_id, callerAccountOf(ctx)?.id ?? null),
  }),
  defineRoute({
    method: 'post',
    path: '/seller/listings/{listing_id}/bids/{bid_id}/accept',
    summary: 'Accept a bid: a transaction awaiting payment',
    description:
      'Seller only (403). Marks the listing sold and closes its other bids. A listing already sold or expired, or a bid no longer open: 409 with error listing_unavailable.',
    tags,
    access: 'auth',
    params: BidIdParams,
    response: TransactionOut,
    status: 201,
    errors: [403, 404, 409],
    handler: async ({ params, ctx }) => acceptBid(deps.db, accountOf(ctx).id, params.listing_id, params.bid_id),
  }),
  defineRoute({
    method: 'get',
    path: '/api/transactions/{transaction_id}',
    summary: 'One own transaction (as buyer or seller)',
    tags,
    access: 'auth',
    params: TransactionIdParams,
    response: TransactionOut,
    errors: [404],
    handler: async ({ params, ctx }) => transactionOf(deps.db, accountOf(ctx).id, params.transaction_id),
  }),
  defineRoute({
    method: 'get',
    path: '/api/transactions/{transaction_id}/checkout',
    summary: 'Pay for an own transaction (the redirect_url of buy-now)',
    description:
      'Card payments are not configured on this server yet: 503 with that reason, after the ownership check (another user’s transaction: 404).',
    tags,
    access: 'auth',
    params: TransactionIdParams,
    response: TransactionOut,
    errors: [404, 503],
    handler: async ({ params, ctx }) => {
      await transactionOf(deps.db, accountOf(ctx).id, params.transaction_id);
      throw new HttpError(503, 'payments_unavailable: card payments are not configured on this server');
    },
  }),
];
