// Public profiles, privacy and avatars (spec: POST /me/privacy, "Upload avatar", /users/{username};
// issue 16 §5).
import { z } from './common.js';
import { ListingOut } from './marketplace.js';
import { CollectionEntry } from './collection.js';

export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
/** Entries and listings a public profile shows (the newest). */
export const PROFILE_SHOWS = { entries: 100, listings: 50 } as const;

export const PrivacyBody = z.strictObject({ is_collection_public: z.boolean() }).openapi('PrivacyChange');
export const PrivacyOut = z.object({ ok: z.literal(true), is_collection_public: z.boolean() }).openapi('Privacy');

export const AvatarUpload = z
  .strictObject({ file: z.string().openapi({ type: 'string', format: 'binary', description: 'JPEG, PNG or WebP, at most 5 MB' }) })
  .openapi('AvatarUpload');
export const AvatarStored = z
  .object({ ok: z.literal(true), avatar_url: z.string().openapi({ description: '256×256 WebP, served from this origin' }) })
  .openapi('AvatarStored');

export const PublicProfile = z
  .object({
    username: z.string(),
    display_name: z.string().nullable(),
    member_since: z.string().openapi({ description: 'YYYY-MM-DD' }),
    avatar_url: z.string().nullable(),
    is_seller: z.boolean(),
    listings: z.array(ListingOut).openapi({ description: 'the seller’s active listings, newest first (at most 50)' }),
    is_collection_public: z.boolean(),
    collection: z
      .object({
        portfolio_value: z.number().openapi({ description: 'USD, from the latest prices' }),
        card_count: z.number().int(),
        items: z.array(CollectionEntry).openapi({ description: 'the newest entries (at most 100)' }),
      })
      .nullable()
      .openapi({ description: 'only when the owner made the collection public (POST /me/privacy)' }),
  })
  .openapi('PublicProfile');
