// Sellers (spec: POST /seller/become, PUT /seller/profile/extended, "Link marketplace username";
// the reading path GET /seller/profile and the link path POST /seller/marketplace-link are ours).
import type { AppDeps } from '../../deps.js';
import { defineRoute } from '../../http/route.js';
import { readUploadedFile } from '../../http/upload.js';
import { importStock, STOCK_IMPORT_MAX_BYTES } from '../../marketplace/stockImport.js';
import { activeSellers, becomeSeller, linkMarketplace, sellerProfile, updateSellerProfile } from '../../marketplace/sellers.js';
import {
  ActiveSellers,
  ActiveSellersQuery,
  BecomeSellerBody,
  MarketplaceLinkBody,
  SellerOut,
  SellerProfileBody,
  StockImportUpload,
  StockImported,
} from '../../../schemas/marketplace.js';

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
    handler: ({ body, caller }) => becomeSeller(deps, caller.account.id, body),
  }),
  defineRoute({
    method: 'get',
    path: '/seller/profile',
    summary: 'Own seller profile',
    tags,
    access: 'auth',
    response: SellerOut,
    errors: [404],
    handler: async ({ caller }) => sellerProfile(deps.db, caller.account.id),
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
    handler: async ({ body, caller }) => updateSellerProfile(deps.db, caller.account.id, body),
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
    handler: async ({ body, caller }) => linkMarketplace(deps.db, caller.account.id, body.username),
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
  defineRoute({
    method: 'post',
    path: '/seller/stock/import',
    summary: 'Import stock from a Cardmarket stock export (CSV) as listings',
    description:
      'multipart/form-data with the export in `file` (at most 5 MB, 10,000 articles): a header row with idProduct, Price (EUR), Condition (MT, NM, EX, GD, LP, PL, PO) and Amount; idArticle, Foil?, Language and Comments optional; semicolons or commas. All or nothing: every bad row is answered in one 422 with its line and reason, and nothing lands. Importing the same export again sets the price, condition and quantity of the listings it made instead of listing the stock twice. Sellers only (403).',
    tags,
    access: 'auth',
    body: StockImportUpload,
    bodyType: 'multipart',
    response: StockImported,
    status: 201,
    errors: [403, 413, 415],
    // ctx: the export is an upload, read from the request's stream.
    handler: async ({ caller, ctx }) =>
      importStock(deps.db, caller.account.id, (await readUploadedFile(ctx, { field: 'file', maxBytes: STOCK_IMPORT_MAX_BYTES })).file),
  }),
];
