// Listings (spec: "Listing (create fields)", "Browse listings", "Marketplace operations in detail",
// "Card verification"). Paths the spec names: POST /seller/listings, POST /api/listings/{id}/renew,
// GET /api/listings/fee-preview, GET /api/verify/{code}; ours: GET /api/listings (browse),
// GET /api/listings/{id}, GET /seller/listings (own), PATCH and DELETE /seller/listings/{id}.
import type { AppDeps } from '../../deps.js';
import { defineRoute } from '../../http/route.js';
import { sellerFees } from '../../marketplace/fees.js';
import { toCents } from '../../../schemas/money.js';
import {
  browseListings,
  createListing,
  listing,
  ownListings,
  renewListing,
  updateListing,
  renewByToken,
  verification,
  verifyCode,
  withdrawListing,
} from '../../marketplace/listings.js';
import { presentListing, presentListingPage } from '../../marketplace/listingsPresenter.js';
import { redirectPage, renewedPage, verifyHelpPage, verifyResultPage, verifySearchPage } from '../../marketplace/pages.js';
import { cardImageUrl } from '../../images/urls.js';
import { readUploadedFile } from '../../http/upload.js';
import { LISTING_IMAGE_MAX_BYTES, uploadListingImage, verificationLine } from '../../marketplace/images.js';
import { fromZod } from '../../http/errors.js';
import { HtmlPage } from '../../../schemas/portal.js';
import {
  BrowseListingsQuery,
  CreateListingBody,
  FEES,
  FeePreview,
  FeePreviewQuery,
  LISTING_TIMES,
  ListingIdParams,
  ListingOut,
  ListingPage,
  OwnListingsQuery,
  Renewed,
  UpdateListingBody,
  VerificationCodeParams,
  VerificationRecord,
  RenewalTokenParams,
  VerifySearchQuery,
  ListingImageOptions,
  ListingImageUpload,
  ListingImageStored,
} from '../../../schemas/marketplace.js';

const tags = ['listings'];

export const listingRoutes = (deps: AppDeps) => [
  defineRoute({
    method: 'post',
    path: '/seller/listings',
    summary: 'List a card for sale',
    description: `Sellers only (403 otherwise). Price in EUR. Open for ${LISTING_TIMES.lifetimeDays} days, then expired unless renewed; gets a verification code for its photos.`,
    tags,
    access: 'auth',
    body: CreateListingBody,
    response: ListingOut,
    status: 201,
    // 400: an image URL that is not one of the seller's uploads.
    errors: [400, 403, 404],
    handler: async ({ body, caller }) => presentListing(await createListing(deps.db, caller.account.id, body)),
  }),
  defineRoute({
    method: 'get',
    path: '/seller/listings',
    summary: 'Own listings, newest first',
    tags,
    access: 'auth',
    query: OwnListingsQuery,
    response: ListingPage,
    handler: async ({ query, caller }) => presentListingPage(await ownListings(deps.db, caller.account.id, query)),
  }),
  defineRoute({
    method: 'patch',
    path: '/seller/listings/{listing_id}',
    summary: 'Change an own active listing',
    tags,
    access: 'auth',
    params: ListingIdParams,
    body: UpdateListingBody,
    response: ListingOut,
    // 400: as creation.
    errors: [400, 403, 404, 409],
    handler: async ({ params, body, caller }) => presentListing(await updateListing(deps.db, caller.account.id, params.listing_id, body)),
  }),
  defineRoute({
    method: 'delete',
    path: '/seller/listings/{listing_id}',
    summary: 'Withdraw an own active listing',
    description: 'The listing stays readable with status withdrawn; a sold or already withdrawn one answers 409.',
    tags,
    access: 'auth',
    params: ListingIdParams,
    response: ListingOut,
    errors: [403, 404, 409],
    handler: async ({ params, caller }) => presentListing(await withdrawListing(deps.db, caller.account.id, params.listing_id)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/listings/{listing_id}/renew',
    summary: `Renew an own listing: +${LISTING_TIMES.renewalDays} days`,
    description: `Extends the expiry by ${LISTING_TIMES.renewalDays} days (from now when already past it; an expired listing opens again) and counts the renewal. Idempotent within ${LISTING_TIMES.renewalIdempotentSeconds} s: a repeat answers the same expiry and count. Sold or withdrawn: 409.`,
    tags,
    access: 'auth',
    params: ListingIdParams,
    response: Renewed,
    errors: [403, 404, 409],
    handler: async ({ params, caller }) => renewListing(deps.db, caller.account.id, params.listing_id),
  }),
  defineRoute({
    method: 'get',
    path: '/api/listings',
    summary: 'Browse open listings, cheapest first',
    tags,
    query: BrowseListingsQuery,
    response: ListingPage,
    handler: async ({ query }) => presentListingPage(await browseListings(deps.db, query)),
  }),
  defineRoute({
    method: 'get',
    path: '/api/listings/fee-preview',
    summary: 'What a seller pays and keeps at a price',
    description: `Marketplace fee ${FEES.marketplaceRate * 100} % of the price; image protection (watermarked photos) ${FEES.imageProtectionRate * 100} % more. Amounts in EUR; each fee is rounded half up to the cent, and the fees and the payout add up to the price exactly. The buyer pays a handling fee of ${FEES.buyerHandlingRate * 100} % on top at checkout.`,
    tags,
    query: FeePreviewQuery,
    response: FeePreview,
    handler: async ({ query }) => sellerFees(toCents(query.price), query.image_protection),
  }),
  defineRoute({
    method: 'get',
    path: '/api/listings/{listing_id}',
    summary: 'One listing, in any state',
    tags,
    params: ListingIdParams,
    response: ListingOut,
    errors: [404],
    handler: async ({ params }) => presentListing(await listing(deps.db, params.listing_id)),
  }),
  defineRoute({
    method: 'get',
    path: '/api/verify/{code}',
    summary: 'Check a verification code from a listing photo',
    description: 'Case-insensitive. An unknown code, or one of an expired or withdrawn listing, answers only valid: false and the code.',
    tags,
    params: VerificationCodeParams,
    response: VerificationRecord,
    handler: async ({ params }) => verifyCode(deps.db, params.code),
  }),
  defineRoute({
    method: 'get',
    path: '/listing-renewal/{token}',
    summary: 'Renew a listing from the link in its expiry e-mail (HTML page)',
    description:
      'The token is the authorisation: signed, single-use, valid 7 days. Renews by 30 days and shows the new expiry. A link that is not valid, used or late: 404; a listing sold or withdrawn meanwhile: 409.',
    tags,
    params: RenewalTokenParams,
    produces: 'html',
    response: HtmlPage,
    errors: [404, 409],
    handler: async ({ params }) => renewedPage((await renewByToken(deps.db, deps.tokens, params.token)).listing),
  }),
  defineRoute({
    method: 'get',
    path: '/verify',
    summary: 'Check a listing photo: the verification code search page (HTML)',
    description: 'With ?code= (the form), 302 to /verify/{code}.',
    tags,
    query: VerifySearchQuery,
    produces: 'html',
    response: HtmlPage,
    redirects: 302,
    // ctx: the 302 goes where the Location header says.
    // A branch, not a service: the search form answers with its page or a 302 to the code's page.
    handler: async ({ query, ctx }) => {
      if (!query.code?.trim()) return verifySearchPage();
      const to = `/verify/${encodeURIComponent(query.code.trim().toUpperCase())}`;
      ctx.set('Location', to);
      return redirectPage(to);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/verify/{code}',
    summary: 'What a verification code names: the listing, its card picture and a link (HTML)',
    tags,
    params: VerificationCodeParams,
    produces: 'html',
    response: HtmlPage,
    handler: async ({ params }) => {
      const { record, cardId } = await verification(deps.db, params.code);
      return verifyResultPage(record, cardId === null ? null : cardImageUrl(cardId, 'small'));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/help/verify-photo',
    summary: 'How to photograph a card with its verification code (HTML)',
    tags,
    produces: 'html',
    response: HtmlPage,
    maxAge: 3600,
    handler: async () => verifyHelpPage(),
  }),
  defineRoute({
    method: 'post',
    path: '/api/upload/listing-image',
    summary: 'Upload a listing photo: its URL for image_urls',
    description:
      'multipart/form-data with the picture in `file`: JPEG, PNG or WebP recognised by content, at most 8 MB (413 beyond, 415 for anything else, 422 without a file or with a bad `watermark`). Kept upright, at most 1,600 px a side, re-encoded as WebP without metadata (no EXIF, no GPS), and usable only in your own listings. `watermark=true` draws the verification band.',
    tags,
    access: 'auth',
    body: ListingImageUpload,
    bodyType: 'multipart',
    response: ListingImageStored,
    status: 201,
    errors: [400, 413, 415],
    // ctx: the photo is an upload, read from the request's stream.
    // Not one call: the upload's stream and fields are parsed here (the parse step) before the one service call.
    handler: async ({ caller, ctx }) => {
      const { file, fields } = await readUploadedFile(ctx, {
        field: 'file',
        maxBytes: LISTING_IMAGE_MAX_BYTES,
        fields: Object.keys(ListingImageOptions.shape),
      });
      const options = ListingImageOptions.safeParse(fields);
      if (!options.success) throw fromZod('body', options.error, fields);
      const uploader = caller.account;
      const watermark = options.data.watermark === 'true' ? verificationLine(uploader.username, deps.config.siteOrigin) : undefined;
      return uploadListingImage(deps.db, deps.images, uploader.id, file, watermark);
    },
  }),
];
