// Sellers (spec: POST /seller/become, PUT /seller/profile/extended, "Link marketplace username";
// the reading path GET /seller/profile and the link path POST /seller/marketplace-link are ours).
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../http/route.js';
import { activeSellers, becomeSeller, linkMarketplace, sellerProfile, updateSellerProfile } from '../marketplace/sellers.js';
import {
  ActiveSellers,
  ActiveSellersQuery,
  BecomeSellerBody,
  MarketplaceLinkBody,
  SellerOut,
  SellerProfileBody,
} from '../../schemas/marketplace.js';
import { accountOf } from './auth.js';

const tags = ['sellers'];

export const sellerRoutes = (deps: AppDeps) => [
  defineRoute({
    method: 'post',
    path: '/seller/become',
    summary: 'Become a seller',
    description:
      'Makes the account a seller with a display name and an ISO 3166-1 alpha-2 country (an account registered as a seller without them completes them here). A second call answers 409.',
    tags,
    access: 'auth',
    body: BecomeSellerBody,
    response: SellerOut,
    status: 201,
    errors: [409],
    handler: async ({ body, ctx }) => {
      const userId = accountOf(ctx).id;
      const profile = await becomeSeller(deps.db, userId, body);
      // Resolved callers are cached with their account: is_seller must show at once, everywhere.
      await deps.keyCache.changed(`user:${userId}`);
      return profile;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/seller/profile',
    summary: 'Own seller profile',
    tags,
    access: 'auth',
    response: SellerOut,
    errors: [404],
    handler: async ({ ctx }) => sellerProfile(deps.db, accountOf(ctx).id),
  }),
  defineRoute({
    method: 'put',
    path: '/seller/profile/extended',
    summary: 'Change the own seller profile',
    description: 'Changes the fields given; an empty text clears bio, location, policies or website. 404 until the account is a seller.',
    tags,
    access: 'auth',
    body: SellerProfileBody,
    response: SellerOut,
    errors: [404],
    handler: async ({ body, ctx }) => updateSellerProfile(deps.db, accountOf(ctx).id, body),
  }),
  defineRoute({
    method: 'post',
    path: '/seller/marketplace-link',
    summary: 'Link the own username on an outside marketplace (Cardmarket)',
    tags,
    access: 'auth',
    body: MarketplaceLinkBody,
    response: SellerOut,
    errors: [404],
    handler: async ({ body, ctx }) => linkMarketplace(deps.db, accountOf(ctx).id, body.username),
  }),
  defineRoute({
    method: 'get',
    path: '/api/market/active-sellers',
    summary: 'Sellers with open listings, most listings first',
    tags: ['market'],
    query: ActiveSellersQuery,
    response: ActiveSellers,
    maxAge: 60,
    handler: async ({ query }) => activeSellers(deps.db, query.limit),
  }),
];
