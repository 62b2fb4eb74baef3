// Wishlists (spec: POST /wishlist/add; ours: GET /wishlist, DELETE /wishlist/{item_id}).
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../http/route.js';
import { addToWishlist, removeFromWishlist, wishlist } from '../collection/wishlist.js';
import { presentWishlist, presentWishlistItem } from '../collection/wishlistPresenter.js';
import { AddToWishlistBody, WishlistItem, WishlistItemIdParams, WishlistPage } from '../../schemas/wishlist.js';
import { Ok } from '../../schemas/auth.js';

const tags = ['wishlist'];

export const wishlistRoutes = (deps: AppDeps) => [
  defineRoute({
    method: 'post',
    path: '/wishlist/add',
    summary: 'Put a card on own wishlist (or change its max price)',
    description:
      'max_price in USD (optional): after a price run takes the card at or under it, one notification (and an e-mail with alert e-mails on); not again while it stays under, again after it rose above and fell back. Unknown card: 404; at most 2,000 cards: 409.',
    tags,
    access: 'auth',
    body: AddToWishlistBody,
    response: WishlistItem,
    status: 201,
    errors: [404, 409],
    handler: async ({ body, caller }) => presentWishlistItem(await addToWishlist(deps.db, caller.account.id, body)),
  }),
  defineRoute({
    method: 'get',
    path: '/wishlist',
    summary: 'Own wishlist, newest first, with current prices',
    tags,
    access: 'auth',
    response: WishlistPage,
    handler: async ({ caller }) => presentWishlist(await wishlist(deps.db, caller.account.id)),
  }),
  defineRoute({
    method: 'delete',
    path: '/wishlist/{item_id}',
    summary: 'Take a card off own wishlist',
    tags,
    access: 'auth',
    params: WishlistItemIdParams,
    response: Ok,
    errors: [404],
    handler: async ({ params, caller }) => removeFromWishlist(deps.db, caller.account.id, params.item_id),
  }),
];
