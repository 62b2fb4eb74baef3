// Accounts, sessions and API keys (spec: Authentication): one typed function per query file.
// Accounts and keys are read through the views of migration 012 (live_accounts, api_key_records).
import { z } from 'zod';
import { TIER_NAMES } from '../schemas/tiers.js';
import { pgQuery, pgStatement, rows } from './typedQuery.js';

const tier = z.enum(TIER_NAMES);
const isoOrNull = z.string().nullable();

export const AccountRow = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  is_admin: z.boolean(),
  is_seller: z.boolean(),
  tier,
  delete_requested_at: isoOrNull,
  developer_enabled_at: isoOrNull,
  created_at: z.string(),
});
export type AccountRow = z.infer<typeof AccountRow>;

const Taken = z.object({ what: z.enum(['username', 'email']) });
/** Which of a username and an e-mail is taken already (no row: neither). */
export const accountNameTaken = pgQuery<[username: string, email: string], typeof Taken>('accounts/account_name_taken', Taken);

/** A new account; its id. */
export const insertAccount = pgQuery<
  [username: string, email: string, passwordHash: string, isSeller: boolean, displayName: string | null, country: string | null],
  typeof rows.id
>('accounts/account_create', rows.id);

const WithHash = AccountRow.extend({ password_hash: z.string().nullable() });
/** The live account a canonical sign-in name (schemas/auth.ts canonicalLogin) names, with its password hash. */
export const accountByLogin = pgQuery<[canonicalLogin: string], typeof WithHash>('accounts/account_by_login', WithHash);
/** A live account. */
export const accountById = pgQuery<[id: number], typeof AccountRow>('accounts/account_by_id', AccountRow);

/** Starts a session. */
export const insertSession = pgStatement<[sessionId: string, userId: number, expiresAt: Date]>('accounts/session_create');
/** The account of a live session. */
export const sessionAccount = pgQuery<[sessionId: string], typeof AccountRow>('accounts/session_account', AccountRow);
/** Ends a session. */
export const revokeSession = pgStatement<[sessionId: string]>('accounts/session_revoke');

const Hash = z.object({ password_hash: z.string().nullable() });
/** An account's password hash. */
export const passwordHashOf = pgQuery<[userId: number], typeof Hash>('accounts/account_password_hash', Hash);
/** Sets a new password hash and ends every session of the account, in one statement. */
export const changePasswordHash = pgStatement<[userId: number, passwordHash: string]>('accounts/account_password_change');

const DeletableAt = z.object({ at: z.string() });
/** Records a deletion request; when the account may be deleted. */
export const requestAccountDeletion = pgQuery<[userId: number, cooldownHours: number], typeof DeletableAt>(
  'accounts/account_deletion_request',
  DeletableAt,
);
/** Withdraws a deletion request. */
export const cancelAccountDeletion = pgStatement<[userId: number]>('accounts/account_deletion_cancel');
const DeletionState = z.object({ requested: z.boolean(), ready: z.boolean() });
/** Whether deletion was requested and whether its cooldown has passed. */
export const accountDeletionState = pgQuery<[userId: number, cooldownHours: number], typeof DeletionState>(
  'accounts/account_deletion_state',
  DeletionState,
);
/** Deletes keys and sessions and anonymises the account row. */
export const anonymiseAccount = pgStatement<[userId: number]>('accounts/account_anonymise');
/** Records that the account accepted the API terms (idempotent). */
export const enableDeveloper = pgStatement<[userId: number]>('accounts/account_enable_developer');

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
export const apiKeysOf = pgQuery<[userId: number], typeof ApiKeyRow>('accounts/api_keys_of_account', ApiKeyRow);
/** One key as its owner sees it. */
export const apiKeyById = pgQuery<[keyId: number], typeof ApiKeyRow>('accounts/api_key_by_id', ApiKeyRow);
/** Keys an account holds (not revoked). */
export const activeApiKeyCount = pgQuery<[userId: number], typeof rows.count>('accounts/api_key_active_count', rows.count);
/** A new key; its id. */
export const insertApiKey = pgQuery<
  [userId: number, name: string, prefix: string, digest: Buffer, tier: string, expiresAt: string | null],
  typeof rows.id
>('accounts/api_key_create', rows.id);
/** Revokes an own key: a row when it was the account's and live. */
export const revokeApiKey = pgQuery<[keyId: number, userId: number], typeof rows.id>('accounts/api_key_revoke', rows.id);

const KeyOwnerRow = z.object({
  key_id: z.number().int(),
  key_tier: tier,
  user_id: z.number().int(),
  expires_at: isoOrNull,
  daily_limit_override: z.number().int().nullable(),
  per_minute_limit_override: z.number().int().nullable(),
});
/** The live key a digest names. */
export const apiKeyOwner = pgQuery<[digest: Buffer], typeof KeyOwnerRow>('accounts/api_key_owner', KeyOwnerRow);
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
>('accounts/api_key_admin_update', KeyOfAccount);
/** An account's newest usable key, if any. */
export const newestApiKeyOf = pgQuery<[userId: number], typeof rows.id>('accounts/api_key_newest_of_account', rows.id);
/** Records a key's usage: its calls today (as the rate limiter counts them) and the UTC day. */
export const recordApiKeyUsage = pgStatement<[keyId: number, callsToday: number, day: string]>('accounts/api_key_usage');
