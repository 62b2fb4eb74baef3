// Sales (spec: "Marketplace operations in detail", the bid rows of "Named paths", "Update
// transaction status", "Submit tracking", "Rate a transaction", reputation): buy-now, bids and
// their acceptance, and the transaction they create and its flow. Paths of ours:
// GET /api/transactions/{id}, its checkout (Stripe), POST …/status, …/tracking and …/rating.
import type { AppDeps } from '../../deps.js';
import { defineRoute } from '../../http/route.js';
import { acceptBid, bidsOf, buyNow, placeBid, transactionOf } from '../../marketplace/sales.js';
import { moveTransaction, rateTransaction, reputation, submitTracking } from '../../marketplace/transactions.js';
import {
  BidBody,
  BidIdParams,
  BidList,
  BidOut,
  BuyNowBody,
  BuyNowOut,
  ListingIdParams,
  Rated,
  RatingBody,
  Reputation,
  TrackingBody,
  TransactionIdParams,
  TransactionOut,
  TransactionStatusBody,
  UsernameParams,
} from '../../../schemas/marketplace.js';
import { CheckoutOut } from '../../../schemas/payments.js';
import { checkoutUrl } from '../../marketplace/payments.js';
import { presentBid, presentBids, presentTransaction } from '../../marketplace/salesPresenter.js';

const tags = ['sales'];

export const saleRoutes = (deps: AppDeps) => {
  const paymentDeps = { db: deps.db, payments: deps.stores.payments, log: deps.log, siteOrigin: deps.config.siteOrigin };
  return [
    defineRoute({
      method: 'post',
      path: '/api/listings/{listing_id}/buy-now',
      summary: 'Buy a listing now: a transaction awaiting payment',
      description:
        'The listing must have buy_now_enabled. Marks it sold and answers where to pay. Refusals carry `error`: 400 buy_now_disabled, 400 self_buy (own listing), 400 listing_unavailable (sold or expired); 404 no such listing; 409 when `variant` is given and is not the listing’s (case-insensitive; a listing without a variant takes none). Of any number of buyers at once, exactly one gets the listing.',
      tags,
      access: 'auth',
      params: ListingIdParams,
      body: BuyNowBody,
      response: BuyNowOut,
      errors: [400, 404, 409],
      handler: async ({ params, body, caller }) => buyNow(deps.db, caller.account.id, params.listing_id, body.variant),
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
      handler: async ({ params, body, caller }) => presentBid(await placeBid(deps.db, caller.account.id, params.listing_id, body)),
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
      handler: async ({ params, caller }) => presentBids(await bidsOf(deps.db, params.listing_id, caller.account?.id ?? null)),
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
      handler: async ({ params, caller }) =>
        presentTransaction(await acceptBid(deps.db, caller.account.id, params.listing_id, params.bid_id)),
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
      handler: async ({ params, caller }) => presentTransaction(await transactionOf(deps.db, caller.account.id, params.transaction_id)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/transactions/{transaction_id}/checkout',
      summary: 'Pay for an own transaction: 302 to its Stripe Checkout page (the redirect_url of buy-now)',
      description:
        'Buyer only (the seller: 403); awaiting payment only (409). Opens a Stripe Checkout session for the buyer total (price and handling fee, EUR), valid 60 minutes; asking again while one is open answers the same page, so a buyer cannot pay twice. Stripe returns the buyer to HOLO_SITE_ORIGIN/transactions/{id}?checkout=success|cancelled. The transaction becomes paid when Stripe’s signed event arrives (POST /api/payments/stripe/webhook). Payments off (production without STRIPE_SECRET_KEY) or Stripe failing: 503 with error payments_unavailable.',
      tags,
      access: 'auth',
      params: TransactionIdParams,
      response: CheckoutOut,
      status: 302,
      errors: [403, 404, 409, 503],
      // ctx: the 302 goes where the Location header says.
      handler: async ({ params, caller, ctx }) => {
        const url = await checkoutUrl(paymentDeps, caller.account.id, params.transaction_id);
        ctx.set('Location', url);
        return { checkout_url: url };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/transactions/{transaction_id}/status',
      summary: 'Move an own transaction on',
      description:
        'paid → shipped (seller), shipped → delivered (buyer), delivered → completed (buyer); cancelled by either party before shipping (the listing opens again, an open checkout page closes, a payment is refunded through Stripe), disputed by either once paid. awaiting_payment → paid is the payment’s own move (Stripe’s signed event after the checkout): asked for here, 409 with error payment_required. Any other move: 409; the other party’s move: 403. The other party is notified.',
      tags,
      access: 'auth',
      params: TransactionIdParams,
      body: TransactionStatusBody,
      response: TransactionOut,
      errors: [403, 404, 409, 503],
      handler: async ({ params, body, caller }) =>
        presentTransaction(await moveTransaction(paymentDeps, caller.account.id, params.transaction_id, body.status)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/transactions/{transaction_id}/tracking',
      summary: 'Record the shipment of an own sale (carrier and tracking number)',
      description: 'Seller only (403). A paid transaction becomes shipped; a shipped one gets its tracking corrected. Otherwise 409.',
      tags,
      access: 'auth',
      params: TransactionIdParams,
      body: TrackingBody,
      response: TransactionOut,
      errors: [403, 404, 409],
      handler: async ({ params, body, caller }) =>
        presentTransaction(await submitTracking(deps.db, caller.account.id, params.transaction_id, body)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/transactions/{transaction_id}/rating',
      summary: 'Rate the other party of an own transaction, once, after delivery',
      description: 'rating 1 to 5, review at most 1000 characters. Before delivery or a second time: 409.',
      tags,
      access: 'auth',
      params: TransactionIdParams,
      body: RatingBody,
      response: Rated,
      status: 201,
      errors: [404, 409],
      handler: async ({ params, body, caller }) => rateTransaction(deps.db, caller.account.id, params.transaction_id, body),
    }),
    ...(['/api/reputation/{username}', '/api/users/{username}/reputation'] as const).map((path) =>
      defineRoute({
        method: 'get',
        path,
        summary: 'What a user’s trading partners rated them',
        description: 'avg of the ratings received (0 without any), their count, and the 10 newest with who gave them (`buyer`).',
        tags,
        params: UsernameParams,
        response: Reputation,
        errors: [404],
        handler: async ({ params }) => reputation(deps.db, params.username),
      }),
    ),
  ];
};
