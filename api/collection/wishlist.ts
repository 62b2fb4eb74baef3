// A collector's wishlist (spec: POST /wishlist/add; issue 16 §2): add (or change the max price),
// list with the current reference prices, remove. Another user's item is not found.
import type { z } from 'zod';
import type { Db } from '../../sql/stores/db.js';
import { DomainError, NotFound } from '../../schemas/errors.js';
import { WISHLIST_MAX_ITEMS, type AddToWishlistBody } from '../../schemas/wishlist.js';
import * as q from '../../sql/wishlist.js';
import { cardExists } from '../../sql/v2Catalogue.js';

/** A wishlist item with its current price as the service reads it (wishlistPresenter.ts shapes it). */
export type WishlistRow = q.WishlistRow;

export async function wishlist(db: Db, userId: number): Promise<{ items: WishlistRow[] }> {
  return { items: await q.wishlistOf(db, userId, null) };
}

export async function addToWishlist(db: Db, userId: number, body: z.output<typeof AddToWishlistBody>): Promise<WishlistRow> {
  if ((await cardExists(db, body.card_id)).length === 0) throw new NotFound('Card');
  const [counted] = await q.countWishlist(db, userId);
  if (counted!.n >= WISHLIST_MAX_ITEMS) throw new DomainError('conflict', `a wishlist holds at most ${WISHLIST_MAX_ITEMS} cards`);
  const [added] = await q.addToWishlist(db, userId, body.card_id, body.max_price ?? null);
  return (await q.wishlistOf(db, userId, added!.id))[0]!;
}

export async function removeFromWishlist(db: Db, userId: number, itemId: number): Promise<{ ok: true }> {
  if ((await q.removeFromWishlist(db, itemId, userId)).length === 0) throw new NotFound('Wishlist item');
  return { ok: true as const };
}
