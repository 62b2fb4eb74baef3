// Wishlists (issue 16 §2): one typed function per query file.
import { z } from 'zod';
import { WishlistItem } from '../schemas/wishlist.js';
import { pgQuery, rows } from './typedQuery.js';

/** Puts a card on a user's wishlist or changes its max price; the item's id. */
export const addToWishlist = pgQuery<[userId: number, cardId: number, maxPrice: number | null], typeof rows.id>(
  'wishlist/wishlist_add',
  rows.id,
);
const ItemRow = WishlistItem.omit({ under_max_price: true });
export type WishlistRow = z.infer<typeof ItemRow>;
/** A user's wishlist (or one item of it), newest first, with reference prices. */
export const wishlistOf = pgQuery<[userId: number, itemId: number | null], typeof ItemRow>('wishlist/wishlist_of', ItemRow);
/** Takes an item off a user's wishlist; its id when it was theirs. */
export const removeFromWishlist = pgQuery<[itemId: number, userId: number], typeof rows.id>('wishlist/wishlist_remove', rows.id);
/** How many cards are on a user's wishlist. */
export const countWishlist = pgQuery<[userId: number], typeof rows.count>('wishlist/wishlist_count', rows.count);

const Crossed = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  card_id: z.number().int(),
  card_name: z.string(),
  max_price: z.number(),
  price: z.number(),
  email: z.string().nullable(),
  email_alerts: z.boolean(),
});
export type CrossedWish = z.infer<typeof Crossed>;
/** After a price run: thresholds newly at or under the price (marked, returned once), others re-armed. */
export const crossWishlistThresholds = pgQuery<[cardIds: number[], usdPrices: number[]], typeof Crossed>(
  'wishlist/wishlist_cross',
  Crossed,
);
