// Accounts and sessions (spec: Authentication): one typed function per query file of
// queries/accounts/. Accounts are read through the view live_accounts of migration 012; API keys
// have their own module, keys.ts.
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
