// Public profiles (issue 16 §5): anyone sees an account's name, since when, its avatar and, for a
// seller, the active listings; the collection grid and its value only when the owner made it
// public. Privacy and the avatar are the owner's to change.
import type { z } from 'zod';
import type { Db } from '../../sql/stores/db.js';
import type { ImageStore } from '../../sql/stores/images.js';
import { DomainError, NotFound } from '../../schemas/errors.js';
import { PROFILE_SHOWS, type PublicProfile } from '../../schemas/profiles.js';
import * as q from '../../sql/profiles.js';
import { listingsOfSeller, type ListingRow } from '../../sql/listings.js';
import { collectionPageIds } from '../../sql/collection.js';
import { valuedEntries, type EntryRow } from './entries.js';
import { cardCount, holdingsOf, totalValue } from './holdings.js';
import { round2 } from '../legacy/cardPriceAnalytics.js';

const avatarUrl = (name: string) => `/static/images/avatars/${name}`;

export async function setPrivacy(db: Db, userId: number, isPublic: boolean): Promise<{ ok: true; is_collection_public: boolean }> {
  const [row] = await q.setCollectionPublic(db, userId, isPublic);
  return { ok: true as const, is_collection_public: row!.is_collection_public };
}

export async function uploadAvatar(db: Db, images: ImageStore, userId: number, upload: Buffer): Promise<{ ok: true; avatar_url: string }> {
  const kept = await images.storeUpload('avatars', upload);
  if ('refused' in kept)
    throw new DomainError(
      'unsupported_media_type',
      'the file is not a readable JPEG, PNG or WebP picture (recognised by its content, not its name)',
    );
  await q.setAvatar(db, userId, kept.name);
  return { ok: true as const, avatar_url: avatarUrl(kept.name) };
}

type Profile = z.infer<typeof PublicProfile>;
/** A public profile with its listings and entries as the service reads them (profilesPresenter.ts shapes them). */
export type ProfileRows = Omit<Profile, 'listings' | 'collection'> & {
  listings: ListingRow[];
  collection: (Omit<NonNullable<Profile['collection']>, 'items'> & { items: EntryRow[] }) | null;
};

export async function publicProfile(db: Db, username: string): Promise<ProfileRows> {
  const [user] = await q.publicProfileOf(db, username);
  if (!user) throw new NotFound('User');
  const listings = user.is_seller ? await listingsOfSeller(db, user.id, 'active', PROFILE_SHOWS.listings, 0) : [];
  let collection: ProfileRows['collection'] = null;
  if (user.is_collection_public) {
    const [ids, holdings] = await Promise.all([collectionPageIds(db, user.id, null, PROFILE_SHOWS.entries, 0), holdingsOf(db, user.id)]);
    const rows = ids.length
      ? await valuedEntries(
          db,
          ids.map((r) => r.id),
        )
      : [];
    collection = {
      portfolio_value: round2(totalValue(holdings)),
      card_count: cardCount(holdings),
      items: rows,
    };
  }
  return {
    username: user.username,
    display_name: user.display_name,
    member_since: user.member_since,
    avatar_url: user.avatar ? avatarUrl(user.avatar) : null,
    is_seller: user.is_seller,
    listings,
    is_collection_public: user.is_collection_public,
    collection,
  };
}
