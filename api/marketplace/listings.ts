// Listings (spec: "Listing (create fields)", "Listing" states, "Marketplace operations in detail"):
// a seller lists, changes, withdraws and renews; anyone browses, reads one, and checks a
// verification code. Every change of a listing locks its row first, so a change never overwrites
// a sale or another change made at the same moment.
import crypto from 'node:crypto';
import type { z } from 'zod';
import type { Db } from '../../sql/stores/db.js';
import type { Tokens } from '../../sql/runtime/signedTokens.js';
import { DomainError, NotFound } from '../../schemas/errors.js';
import { toCents } from '../../schemas/money.js';
import {
  LISTING_TIMES,
  type BrowseListingsQuery,
  type CreateListingBody,
  type ListingOut,
  type OwnListingsQuery,
  type UpdateListingBody,
  type VerificationRecord as VerificationRecordSchema,
} from '../../schemas/marketplace.js';
import * as q from '../../sql/listings.js';
import { sellerProfileOf } from '../../sql/sellers.js';
import { cardExists } from '../../sql/v2Catalogue.js';
import { readRenewalToken } from '../../ingest/marketplace/renewalTokens.js';
import { checkListingImageUrls } from './images.js';

export type Listing = z.infer<typeof ListingOut>;
/** A listing as the service reads it, with its seller's id (listingsPresenter.ts leaves that out). */
export type ListingRow = q.ListingRow;
/** A page of listings and how many match in all. */
export type ListingRows = { items: ListingRow[]; total: number };

/** Without 0, O, 1 and I, which read alike on a photo. */
const CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const CODE_LENGTH = 8;
const VALID_CODE = /^[2-9A-HJ-NP-Z]{6,8}$/;

export function newVerificationCode(): string {
  return Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[crypto.randomInt(CODE_ALPHABET.length)]).join('');
}

export async function createListing(db: Db, sellerId: number, body: z.output<typeof CreateListingBody>): Promise<ListingRow> {
  return db.transaction(async (tx) => {
    if ((await sellerProfileOf(tx, sellerId)).length === 0)
      throw new DomainError('forbidden', 'only sellers list cards: POST /seller/become first');
    if ((await cardExists(tx, body.card_id)).length === 0) throw new NotFound('Card');
    await checkListingImageUrls(tx, sellerId, body.image_urls);
    // 32^8 codes: a clash is rare; the unique index decides, and a fresh code is drawn.
    for (let attempt = 1; attempt <= 5; attempt++) {
      const [created] = await q.insertListing(
        tx,
        sellerId,
        body.card_id,
        toCents(body.price),
        body.condition,
        body.quantity,
        body.variant ?? null,
        body.graded,
        body.grading_company ?? null,
        body.grade ?? null,
        body.description ?? null,
        body.accepts_offers,
        body.buy_now_enabled,
        body.image_urls,
        LISTING_TIMES.lifetimeDays,
        body.watermark_enabled,
        newVerificationCode(),
      );
      if (created) return (await q.listingRecord(tx, created.id))[0]!;
    }
    throw new Error('no free verification code in 5 draws');
  });
}

export async function listing(db: Db, listingId: number): Promise<ListingRow> {
  const [row] = await q.listingRecord(db, listingId);
  if (!row) throw new NotFound('Listing');
  return row;
}

export async function browseListings(db: Db, query: z.output<typeof BrowseListingsQuery>): Promise<ListingRows> {
  const filters = [query.tcg_slug ?? null, query.min_price ?? null, query.max_price ?? null, query.condition ?? null] as const;
  const [items, [count]] = await Promise.all([
    q.browseListings(db, ...filters, query.limit, query.offset),
    q.browseListingsCount(db, ...filters),
  ]);
  return { items, total: count!.n };
}

export async function ownListings(db: Db, sellerId: number, query: z.output<typeof OwnListingsQuery>): Promise<ListingRows> {
  const [items, [count]] = await Promise.all([
    q.listingsOfSeller(db, sellerId, query.status ?? null, query.limit, query.offset),
    q.listingsOfSellerCount(db, sellerId, query.status ?? null),
  ]);
  return { items, total: count!.n };
}

/** Locks an own listing for a change; refuses another seller's (403) and a missing one (404). */
async function lockOwn(tx: Db, sellerId: number, listingId: number) {
  const [locked] = await q.lockListing(tx, listingId);
  if (!locked) throw new NotFound('Listing');
  if (locked.seller_id !== sellerId) throw new DomainError('forbidden', 'this listing is another seller’s');
  return locked;
}

const notOpen = (status: string) => new DomainError('conflict', `the listing is ${status}; only an active listing can change`);

export async function updateListing(
  db: Db,
  sellerId: number,
  listingId: number,
  change: z.output<typeof UpdateListingBody>,
): Promise<ListingRow> {
  return db.transaction(async (tx) => {
    const locked = await lockOwn(tx, sellerId, listingId);
    if (change.image_urls) await checkListingImageUrls(tx, sellerId, change.image_urls);
    if (locked.status !== 'active' || locked.past_expiry) throw notOpen(locked.past_expiry ? 'expired' : locked.status);
    const next = { ...(await q.listingRecord(tx, listingId))[0]!, ...change };
    await q.updateListing(
      tx,
      listingId,
      toCents(next.price),
      next.condition,
      next.quantity,
      next.variant ?? null,
      next.description ?? null,
      next.accepts_offers,
      next.buy_now_enabled,
      next.image_urls,
    );
    return (await q.listingRecord(tx, listingId))[0]!;
  });
}

export async function withdrawListing(db: Db, sellerId: number, listingId: number): Promise<ListingRow> {
  return db.transaction(async (tx) => {
    const locked = await lockOwn(tx, sellerId, listingId);
    if (locked.status !== 'active') throw notOpen(locked.status);
    await q.withdrawListing(tx, listingId);
    return (await q.listingRecord(tx, listingId))[0]!;
  });
}

/**
 * +30 days on the expiry (from now once past it; an expired listing opens again), at most once a
 * minute: a renewal within 60 s of the last answers the same expiry and count.
 */
export async function renewListing(
  db: Db,
  sellerId: number,
  listingId: number,
): Promise<{ ok: true; expires_at: string; renewal_count: number }> {
  return db.transaction(async (tx) => {
    const locked = await lockOwn(tx, sellerId, listingId);
    if (locked.status === 'sold' || locked.status === 'withdrawn') throw new DomainError('conflict', `the listing is ${locked.status}`);
    await q.renewListing(tx, listingId, LISTING_TIMES.renewalDays, LISTING_TIMES.renewalIdempotentSeconds);
    const [row] = await q.listingRecord(tx, listingId);
    return { ok: true as const, expires_at: row!.expires_at, renewal_count: row!.renewal_count };
  });
}

export type VerificationRecord = z.infer<typeof VerificationRecordSchema>;

/**
 * What a verification code says, and the card it names (for the result page's picture); an
 * unknown, expired or withdrawn listing's only that it is not valid.
 */
export async function verification(db: Db, code: string): Promise<{ record: VerificationRecord; cardId: number | null }> {
  const normalised = code.trim().toUpperCase();
  const [row] = VALID_CODE.test(normalised) ? await q.listingByVerificationCode(db, normalised) : [];
  if (!row || row.status === 'expired' || row.status === 'withdrawn') return { record: { valid: false, code }, cardId: null };
  return {
    record: {
      valid: true,
      code: row.verification_code,
      status: row.status,
      card_name: row.card_name,
      set_name: row.set_name,
      condition: row.condition,
      seller_username: row.seller_username,
      seller_display_name: row.seller_display_name,
      description: row.description,
      watermark_enabled: row.watermark_enabled,
      created_at: row.created_at,
      listing_url: `/api/listings/${row.id}`,
    },
    cardId: row.card_id,
  };
}

export async function verifyCode(db: Db, code: string): Promise<VerificationRecord> {
  return (await verification(db, code)).record;
}

/**
 * Renews a listing through the link its expiry e-mail carried: the token is the authorisation
 * (signed, single-use, 7 days). A link that is not ours, used or late: 404; a listing sold or
 * withdrawn meanwhile: 409 and the link stays unused.
 */
export async function renewByToken(db: Db, tokens: Tokens, token: string): Promise<{ listing: ListingRow; renewal_count: number }> {
  const read = await readRenewalToken(tokens, token);
  const refused = () => new NotFound('Renewal link (not valid, used already, or expired)');
  if (!read) throw refused();
  return db.transaction(async (tx) => {
    if ((await q.useRenewalToken(tx, read.nonceSha256, read.listingId)).length === 0) throw refused();
    const [locked] = await q.lockListing(tx, read.listingId);
    if (!locked || locked.status === 'sold' || locked.status === 'withdrawn')
      throw new DomainError('conflict', `the listing is ${locked?.status ?? 'gone'} and cannot be renewed`);
    await q.renewListing(tx, read.listingId, LISTING_TIMES.renewalDays, 0);
    const listing = (await q.listingRecord(tx, read.listingId))[0]!;
    return { listing, renewal_count: listing.renewal_count };
  });
}
