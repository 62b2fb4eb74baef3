// Wishlists (spec: POST /wishlist/add; issue 16 §2): cards a collector wants, with the most they
// would pay. Prices in USD, the market price's currency.
import { intParam, z, PG_INT_MAX } from './common.js';
import { NamedCard } from './collection.js';
import { centAmount } from './money.js';

export const WISHLIST_MAX_ITEMS = 2_000;

export const WishlistItem = z
  .object({
    id: z.number().int(),
    ...NamedCard,
    max_price: z.number().nullable().openapi({ description: 'USD; notified once when a price run takes the card at or under it' }),
    current_price: z.number().nullable().openapi({ description: 'the card’s reference market price, USD' }),
    under_max_price: z.boolean(),
    added_at: z.string(),
    notified_at: z.string().nullable().openapi({ description: 'when the price last fell under max_price (null: not since it was set)' }),
  })
  .openapi('WishlistItem');
export const WishlistPage = z.object({ items: z.array(WishlistItem) }).openapi('Wishlist');
export const AddToWishlistBody = z
  .strictObject({
    card_id: z.number().int().positive().max(PG_INT_MAX),
    max_price: centAmount({ min: 0.01, max: 1e9 }).optional(),
  })
  .openapi('AddToWishlist', {
    description: 'A card already on the wishlist gets the new max_price (and is notified again when under it).',
  });
export const WishlistItemIdParams = z.strictObject({ item_id: intParam({ min: 1, max: PG_INT_MAX }) });
