// Sellers (spec: "Become seller", PUT /seller/profile/extended, "Link marketplace username"): an
// account becomes a seller once, with a display name and a country, and keeps an extended profile.
import type { z } from 'zod';
import type { Db } from '../../sql/stores/db.js';
import { DomainError } from '../../schemas/errors.js';
import type { BecomeSellerBody, SellerOut, SellerProfileBody } from '../../schemas/marketplace.js';
import * as q from '../../sql/sellers.js';
import type { KeyCache } from '../auth/keyCache.js';

export type SellerProfile = z.infer<typeof SellerOut>;

// The account has no seller profile: nothing to read or change (404), as for any row it lacks.
const notASeller = () => new DomainError('not_found', 'no seller profile for this account: POST /seller/become first');

/** Makes the account a seller (409 when it is one); every instance's cached caller sees it at once. */
export async function becomeSeller(
  { db, keyCache }: { db: Db; keyCache: Pick<KeyCache, 'changed'> },
  userId: number,
  body: z.output<typeof BecomeSellerBody>,
): Promise<SellerProfile> {
  const profile = await db.transaction(async (tx) => {
    if ((await q.becomeSeller(tx, userId, body.display_name, body.country)).length === 0)
      throw new DomainError('conflict', 'this account is already a seller; PUT /seller/profile/extended changes its profile');
    return (await q.sellerProfileOf(tx, userId))[0]!;
  });
  // Resolved callers are cached with their account: is_seller must show at once, everywhere.
  await keyCache.changed(`user:${userId}`);
  return profile;
}

export async function sellerProfile(db: Db, userId: number): Promise<SellerProfile> {
  const [profile] = await q.sellerProfileOf(db, userId);
  if (!profile) throw notASeller();
  return profile;
}

/** Changes the given fields; an empty text clears an optional one. */
export async function updateSellerProfile(db: Db, userId: number, change: z.output<typeof SellerProfileBody>): Promise<SellerProfile> {
  return db.transaction(async (tx) => {
    const [current] = await q.sellerProfileOf(tx, userId);
    if (!current) throw notASeller();
    const next = { ...current, ...change };
    const orNull = (v: string | null) => (v === '' ? null : v);
    if (next.country === null) throw new DomainError('invalid', 'a seller profile needs a country: give country (ISO 3166-1 alpha-2)');
    await q.updateSellerProfile(
      tx,
      userId,
      next.display_name,
      next.country,
      orNull(next.bio),
      orNull(next.location),
      orNull(next.shipping_policy),
      orNull(next.return_policy),
      orNull(next.website),
    );
    return (await q.sellerProfileOf(tx, userId))[0]!;
  });
}

export async function linkMarketplace(db: Db, userId: number, username: string): Promise<SellerProfile> {
  return db.transaction(async (tx) => {
    if ((await q.linkMarketplace(tx, userId, username)).length === 0) throw notASeller();
    return (await q.sellerProfileOf(tx, userId))[0]!;
  });
}

/** Sellers with open listings, most listings first (GET /api/market/active-sellers). */
export async function activeSellers(db: Db, limit: number) {
  return { items: await q.activeSellers(db, limit) };
}
