// Public profiles, privacy and avatars (issue 16 §5): one typed function per query file.
import { z } from 'zod';
import { pgQuery, pgStatement } from './typedQuery.js';

const Privacy = z.object({ is_collection_public: z.boolean() });
/** Shows or hides an account's collection on its profile. */
export const setCollectionPublic = pgQuery<[userId: number, isPublic: boolean], typeof Privacy>('profiles/account_privacy_set', Privacy);
/** Sets an account's avatar. */
export const setAvatar = pgStatement<[userId: number, avatar: string]>('profiles/account_avatar_set');
const ProfileRow = z.object({
  id: z.number().int(),
  username: z.string(),
  display_name: z.string().nullable(),
  is_seller: z.boolean(),
  is_collection_public: z.boolean(),
  avatar: z.string().nullable(),
  member_since: z.string(),
});
/** What anyone may see of an account. */
export const publicProfileOf = pgQuery<[username: string], typeof ProfileRow>('profiles/public_profile', ProfileRow);
