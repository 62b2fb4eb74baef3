// API keys (spec: "API key record"): one typed function per query file of queries/keys/. Keys are
// read through the view api_key_records of migration 012.
import { z } from 'zod';
import { TIER_NAMES } from '../schemas/tiers.js';
import { pgQuery, pgStatement, rows } from './typedQuery.js';

const tier = z.enum(TIER_NAMES);
const isoOrNull = z.string().nullable();

export const ApiKeyRow = z.object({
  id: z.number().int(),
  name: z.string(),
  prefix: z.string(),
  tier,
  is_active: z.boolean(),
  calls_today: z.number().int(),
  last_used_at: isoOrNull,
  created_at: z.string(),
  expires_at: isoOrNull,
  daily_limit_override: z.number().int().nullable(),
  per_minute_limit_override: z.number().int().nullable(),
});
/** An account's keys (not revoked), oldest first. */
export const apiKeysOf = pgQuery<[userId: number], typeof ApiKeyRow>('keys/api_keys_of_account', ApiKeyRow);
/** One key as its owner sees it. */
export const apiKeyById = pgQuery<[keyId: number], typeof ApiKeyRow>('keys/api_key_by_id', ApiKeyRow);
/** Keys an account holds (not revoked). */
export const activeApiKeyCount = pgQuery<[userId: number], typeof rows.count>('keys/api_key_active_count', rows.count);
/** A new key; its id. */
export const insertApiKey = pgQuery<
  [userId: number, name: string, prefix: string, digest: Buffer, tier: string, expiresAt: string | null],
  typeof rows.id
>('keys/api_key_create', rows.id);
/** Revokes an own key: a row when it was the account's and live. */
export const revokeApiKey = pgQuery<[keyId: number, userId: number], typeof rows.id>('keys/api_key_revoke', rows.id);

const KeyOwnerRow = z.object({
  key_id: z.number().int(),
  key_tier: tier,
  user_id: z.number().int(),
  expires_at: isoOrNull,
  daily_limit_override: z.number().int().nullable(),
  per_minute_limit_override: z.number().int().nullable(),
});
/** The live key a digest names. */
export const apiKeyOwner = pgQuery<[digest: Buffer], typeof KeyOwnerRow>('keys/api_key_owner', KeyOwnerRow);
const KeyOfAccount = z.object({ id: z.number().int(), user_id: z.number().int() });
/** An operator's change to a key (tier, limits, active flag); a row when the key is not revoked. */
export const adminUpdateApiKey = pgQuery<
  [
    keyId: number,
    tier: string | null,
    setDaily: boolean,
    dailyLimit: number | null,
    setPerMinute: boolean,
    perMinuteLimit: number | null,
    isActive: boolean | null,
  ],
  typeof KeyOfAccount
>('keys/api_key_admin_update', KeyOfAccount);
/** An account's newest usable key, if any. */
export const newestApiKeyOf = pgQuery<[userId: number], typeof rows.id>('keys/api_key_newest_of_account', rows.id);
/** Records a key's usage: its calls today (as the rate limiter counts them) and the UTC day. */
export const recordApiKeyUsage = pgStatement<[keyId: number, callsToday: number, day: string]>('keys/api_key_usage');
