// Listings (spec: "Listing", "Browse listings", "Card verification"): one typed function per query
// file of queries/listings/. Listings are read through the view listing_records (migration 018),
// which has the contract's own shape; expiry, its renewal tokens and listing photos are here too.
import { z } from 'zod';
import { ListingOut } from '../schemas/marketplace.js';
import { pgAmount } from '../schemas/money.js';
import { pgQuery, pgStatement, rows } from './typedQuery.js';

export const ListingRow = ListingOut.extend({ seller_id: z.number().int(), price: pgAmount });
export type ListingRow = z.infer<typeof ListingRow>;

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
>('listings/listing_create', rows.id);
/** One listing as reads show it. */
export const listingRecord = pgQuery<[listingId: number], typeof ListingRow>('listings/listing_record', ListingRow);
const LockedListing = z.object({ id: z.number().int(), seller_id: z.number().int(), status: z.string(), past_expiry: z.boolean() });
/** A listing's owner and state, locked until the transaction ends. */
export const lockListing = pgQuery<[listingId: number], typeof LockedListing>('listings/listing_lock', LockedListing);
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
  >('listings/listing_update');
/** Takes an open listing off the market. */
export const withdrawListing = pgStatement<[listingId: number]>('listings/listing_withdraw');
/** Renews a listing unless it was renewed within the window; its id when it was renewed now. */
export const renewListing = pgQuery<[listingId: number, days: number, idempotentSeconds: number], typeof rows.id>(
  'listings/listing_renew',
  rows.id,
);

type BrowseFilters = [tcgSlug: string | null, minPrice: number | null, maxPrice: number | null, condition: string | null];
/** A page of open listings, cheapest first. */
export const browseListings = pgQuery<[...BrowseFilters, limit: number, offset: number], typeof ListingRow>(
  'listings/listings_browse',
  ListingRow,
);
/** How many open listings match the filters. */
export const browseListingsCount = pgQuery<BrowseFilters, typeof rows.count>('listings/listings_browse_count', rows.count);
/** A seller's own listings, newest first. */
export const listingsOfSeller = pgQuery<[sellerId: number, status: string | null, limit: number, offset: number], typeof ListingRow>(
  'listings/listings_of_seller',
  ListingRow,
);
/** How many listings a seller has (in one state). */
export const listingsOfSellerCount = pgQuery<[sellerId: number, status: string | null], typeof rows.count>(
  'listings/listings_of_seller_count',
  rows.count,
);
const VerifiedListingRow = ListingRow.extend({ seller_display_name: z.string() });
/** The listing a verification code belongs to, with its seller's display name. */
export const listingByVerificationCode = pgQuery<[code: string], typeof VerifiedListingRow>(
  'listings/listing_by_verification_code',
  VerifiedListingRow,
);

const ExpiredListing = z.object({
  listing_id: z.number().int(),
  seller_id: z.number().int(),
  email: z.string().nullable(),
  username: z.string(),
  card_name: z.string(),
  price: pgAmount,
});
/** Expires up to `limit` listings past their expiry; who to tell. */
export const expireDueListings = pgQuery<[limit: number], typeof ExpiredListing>('listings/listings_expire_due', ExpiredListing);
/** Keeps a renewal token's digest. */
export const insertRenewalToken = pgStatement<[nonceSha256: Buffer, listingId: number, expiresAt: Date]>('listings/renewal_token_create');
/** Uses a renewal token once; its listing when it was unused and in time. */
export const useRenewalToken = pgQuery<[nonceSha256: Buffer, listingId: number], typeof rows.id>('listings/renewal_token_use', rows.id);

/** Remembers who uploaded a listing photo. */
export const recordListingImage = pgStatement<[name: string, uploaderId: number, bytes: number]>('listings/listing_image_record');
const ImageName = z.object({ name: z.string() });
/** Which of these photo names the user uploaded. */
export const listingImagesOf = pgQuery<[uploaderId: number, names: string[]], typeof ImageName>(
  'listings/listing_images_of_uploader',
  ImageName,
);
