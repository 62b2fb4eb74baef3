// Shapes a wishlist row into the response's item (schemas/wishlist.ts): whether the current price is within the maximum.
import type { z } from 'zod';
import type * as q from '../../sql/wishlist.js';
import type { WishlistItem, WishlistPage } from '../../schemas/wishlist.js';

export const presentWishlistItem = (row: q.WishlistRow): z.infer<typeof WishlistItem> => ({
  ...row,
  under_max_price: row.max_price !== null && row.current_price !== null && row.current_price <= row.max_price,
});

export const presentWishlist = ({ items }: { items: q.WishlistRow[] }): z.infer<typeof WishlistPage> => ({
  items: items.map(presentWishlistItem),
});
