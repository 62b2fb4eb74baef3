// The seller marketplace's sellers and listings (spec: "Listing", "Marketplace operations in
// detail"): one typed function per query file. Listings are read through the view listing_records
// (migration 018), which has the contract's own shape.
import { z } from 'zod';
import { ActiveSellers, ListingOut, Reputation, SellerOut, TRANSACTION_STATUSES, TransactionOut } from '../schemas/marketplace.js';
import { pgAmount } from '../schemas/money.js';
import { pgQuery, pgStatement, rows } from './typedQuery.js';

export const ListingRow = ListingOut.extend({ seller_id: z.number().int(), price: pgAmount });
export type ListingRow = z.infer<typeof ListingRow>;

/** Makes an account a seller; its id when it became one (none when it already was). */
export const becomeSeller = pgQuery<[userId: number, displayName: string, country: string], typeof rows.id>(
  'marketplace/seller_become',
  rows.id,
);
/** A seller's profile (none when the account is no seller). */
export const sellerProfileOf = pgQuery<[userId: number], typeof SellerOut>('marketplace/seller_profile_of', SellerOut);
/** Writes a seller's whole profile; its id when the account is a seller. */
export const updateSellerProfile = pgQuery<
  [
    userId: number,
    displayName: string,
    country: string,
    bio: string | null,
    location: string | null,
    shippingPolicy: string | null,
    returnPolicy: string | null,
    website: string | null,
  ],
  typeof rows.id
>('marketplace/seller_profile_update', rows.id);
/** Links a seller's username on an outside marketplace; its id when the account is a seller. */
export const linkMarketplace = pgQuery<[userId: number, username: string], typeof rows.id>('marketplace/seller_marketplace_link', rows.id);

/** A new listing; its id. */
export const insertListing = pgQuery<
  [
    sellerId: number,
    cardId: number,
    priceCents: number,
    condition: string,
    quantity: number,
    variant: string | null,
    graded: boolean,
    gradingCompany: string | null,
    grade: number | null,
    description: string | null,
    acceptsOffers: boolean,
    buyNowEnabled: boolean,
    imageUrls: string[],
    lifetimeDays: number,
    watermarkEnabled: boolean,
    verificationCode: string,
  ],
  typeof rows.id
>('marketplace/listing_create', rows.id);
/** One listing as reads show it. */
export const listingRecord = pgQuery<[listingId: number], typeof ListingRow>('marketplace/listing_record', ListingRow);
const LockedListing = z.object({ id: z.number().int(), seller_id: z.number().int(), status: z.string(), past_expiry: z.boolean() });
/** A listing's owner and state, locked until the transaction ends. */
export const lockListing = pgQuery<[listingId: number], typeof LockedListing>('marketplace/listing_lock', LockedListing);
/** Writes a listing's changeable fields. */
export const updateListing =
  pgStatement<
    [
      listingId: number,
      priceCents: number,
      condition: string,
      quantity: number,
      variant: string | null,
      description: string | null,
      acceptsOffers: boolean,
      buyNowEnabled: boolean,
      imageUrls: string[],
    ]
  >('marketplace/listing_update');
/** Takes an open listing off the market. */
export const withdrawListing = pgStatement<[listingId: number]>('marketplace/listing_withdraw');
/** Renews a listing unless it was renewed within the window; its id when it was renewed now. */
export const renewListing = pgQuery<[listingId: number, days: number, idempotentSeconds: number], typeof rows.id>(
  'marketplace/listing_renew',
  rows.id,
);

type BrowseFilters = [tcgSlug: string | null, minPrice: number | null, maxPrice: number | null, condition: string | null];
/** A page of open listings, cheapest first. */
export const browseListings = pgQuery<[...BrowseFilters, limit: number, offset: number], typeof ListingRow>(
  'marketplace/listings_browse',
  ListingRow,
);
/** How many open listings match the filters. */
export const browseListingsCount = pgQuery<BrowseFilters, typeof rows.count>('marketplace/listings_browse_count', rows.count);
/** A seller's own listings, newest first. */
export const listingsOfSeller = pgQuery<[sellerId: number, status: string | null, limit: number, offset: number], typeof ListingRow>(
  'marketplace/listings_of_seller',
  ListingRow,
);
/** How many listings a seller has (in one state). */
export const listingsOfSellerCount = pgQuery<[sellerId: number, status: string | null], typeof rows.count>(
  'marketplace/listings_of_seller_count',
  rows.count,
);
const VerifiedListingRow = ListingRow.extend({ seller_display_name: z.string() });
/** The listing a verification code belongs to, with its seller's display name. */
export const listingByVerificationCode = pgQuery<[code: string], typeof VerifiedListingRow>(
  'marketplace/listing_by_verification_code',
  VerifiedListingRow,
);

const ActiveSeller = ActiveSellers.shape.items.element;
/** Sellers with open listings, most listings first. */
export const activeSellers = pgQuery<[limit: number], typeof ActiveSeller>('marketplace/active_sellers', ActiveSeller);

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
export const lockListingForSale = pgQuery<[listingId: number], typeof ListingForSale>('marketplace/listing_lock_for_sale', ListingForSale);
/** Marks a listing sold and closes its open bids. */
export const markListingSold = pgStatement<[listingId: number]>('marketplace/listing_mark_sold');
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
>('marketplace/transaction_create', rows.id);
export const TransactionRow = TransactionOut.extend({
  buyer_id: z.number().int(),
  seller_id: z.number().int(),
  amount: pgAmount,
  handling_fee: pgAmount,
  buyer_total: pgAmount,
});
export type TransactionRow = z.infer<typeof TransactionRow>;
/** One transaction as its parties read it. */
export const transactionRecord = pgQuery<[transactionId: number], typeof TransactionRow>('marketplace/transaction_record', TransactionRow);

/** A new open bid; its id. */
export const insertBid = pgQuery<[listingId: number, bidderId: number, amountCents: number, message: string | null], typeof rows.id>(
  'marketplace/bid_create',
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
export const bidsOfListing = pgQuery<[listingId: number], typeof BidRow>('marketplace/bids_of_listing', BidRow);
const BidState = z.object({ id: z.number().int(), bidder_id: z.number().int(), amount_cents: z.number().int(), status: z.string() });
/** One bid of a listing. */
export const bidOfListing = pgQuery<[listingId: number, bidId: number], typeof BidState>('marketplace/bid_of_listing', BidState);
/** Marks a bid accepted. */
export const acceptBid = pgStatement<[bidId: number]>('marketplace/bid_accept');

const LockedTransaction = z.object({
  id: z.number().int(),
  listing_id: z.number().int(),
  buyer_id: z.number().int(),
  seller_id: z.number().int(),
  status: z.enum(TRANSACTION_STATUSES),
});
/** A transaction's parties and state, locked until the transaction ends. */
export const lockTransaction = pgQuery<[transactionId: number], typeof LockedTransaction>(
  'marketplace/transaction_lock',
  LockedTransaction,
);
/** Moves a transaction between two states with who moved it; its id when it was in `from`. */
export const moveTransaction = pgQuery<[transactionId: number, to: string, actorId: number, from: string], typeof rows.id>(
  'marketplace/transaction_move',
  rows.id,
);
/** Records a shipment's carrier and tracking number. */
export const recordTracking =
  pgStatement<[transactionId: number, carrier: string, trackingNumber: string]>('marketplace/transaction_tracking');
/** Gives a listing whose sale was cancelled back to the market (unless expired). */
export const reopenListing = pgStatement<[listingId: number]>('marketplace/listing_reopen');
/** A party's rating; its id, or none when this party rated already. */
export const rateTransaction = pgQuery<
  [transactionId: number, raterId: number, rateeId: number, rating: number, review: string | null],
  typeof rows.id
>('marketplace/transaction_rate', rows.id);
const ReputationRow = z.object({ user_id: z.number().int(), avg: z.number(), count: z.number().int() });
/** What a user received (none when there is no such user). */
export const reputationOf = pgQuery<[username: string], typeof ReputationRow>('marketplace/reputation_of', ReputationRow);
const Review = Reputation.shape.recent_reviews.element;
/** The newest ratings a user received. */
export const recentReviews = pgQuery<[userId: number, limit: number], typeof Review>('marketplace/reputation_recent_reviews', Review);

const ExpiredListing = z.object({
  listing_id: z.number().int(),
  seller_id: z.number().int(),
  email: z.string().nullable(),
  username: z.string(),
  card_name: z.string(),
  price: pgAmount,
});
/** Expires up to `limit` listings past their expiry; who to tell. */
export const expireDueListings = pgQuery<[limit: number], typeof ExpiredListing>('marketplace/listings_expire_due', ExpiredListing);
/** Keeps a renewal token's digest. */
export const insertRenewalToken =
  pgStatement<[nonceSha256: Buffer, listingId: number, expiresAt: Date]>('marketplace/renewal_token_create');
/** Uses a renewal token once; its listing when it was unused and in time. */
export const useRenewalToken = pgQuery<[nonceSha256: Buffer, listingId: number], typeof rows.id>('marketplace/renewal_token_use', rows.id);

/** Remembers who uploaded a listing photo. */
export const recordListingImage = pgStatement<[name: string, uploaderId: number, bytes: number]>('marketplace/listing_image_record');
const ImageName = z.object({ name: z.string() });
/** Which of these photo names the user uploaded. */
export const listingImagesOf = pgQuery<[uploaderId: number, names: string[]], typeof ImageName>(
  'marketplace/listing_images_of_uploader',
  ImageName,
);

const Imported = z.object({ inserted: z.boolean() });
/** One imported stock article: inserted, or the open listing of the same article updated. */
export const importStockArticle = pgQuery<
  [
    sellerId: number,
    cardId: number,
    priceCents: number,
    condition: string,
    quantity: number,
    description: string | null,
    verificationCode: string,
    lifetimeDays: number,
    stockRef: string,
  ],
  typeof Imported
>('marketplace/listing_import_stock', Imported);
