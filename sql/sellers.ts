// Sellers (spec: "Become seller", "Link marketplace username", "Import stock from a marketplace
// export"): one typed function per query file of queries/sellers/. The stock import's listing
// write is here, not in listings.ts, because it is the sellers' route (/seller/stock/import).
import { z } from 'zod';
import { ActiveSellers, SellerOut } from '../schemas/marketplace.js';
import { pgQuery, rows } from './typedQuery.js';

/** Makes an account a seller; its id when it became one (none when it already was). */
export const becomeSeller = pgQuery<[userId: number, displayName: string, country: string], typeof rows.id>(
  'sellers/seller_become',
  rows.id,
);
/** A seller's profile (none when the account is no seller). */
export const sellerProfileOf = pgQuery<[userId: number], typeof SellerOut>('sellers/seller_profile_of', SellerOut);
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
>('sellers/seller_profile_update', rows.id);
/** Links a seller's username on an outside marketplace; its id when the account is a seller. */
export const linkMarketplace = pgQuery<[userId: number, username: string], typeof rows.id>('sellers/seller_marketplace_link', rows.id);

const ActiveSeller = ActiveSellers.shape.items.element;
/** Sellers with open listings, most listings first. */
export const activeSellers = pgQuery<[limit: number], typeof ActiveSeller>('sellers/active_sellers', ActiveSeller);

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
>('sellers/listing_import_stock', Imported);
