// Accounts, sessions and API keys in PostgreSQL. Every function takes the Db wrapper (a store
// outage is a 503) or, where several writes must stand together, a transaction.
import crypto from 'node:crypto';
import type { Db } from '../../sql/stores/db.js';
import * as q from '../../sql/accounts.js';
import * as keys from '../../sql/keys.js';
import { DomainError } from '../../schemas/errors.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { SESSION_DAYS } from './sessionTokens.js';
import { keyTierWithin, TIERS, type Tier } from '../../schemas/tiers.js';

export type User = q.AccountRow;

export const publicUser = (u: User) => ({
  id: u.id,
  username: u.username,
  email: u.email,
  is_admin: u.is_admin,
  is_seller: u.is_seller,
  created_at: u.created_at,
});

export async function createUser(
  db: Db,
  input: { username: string; email: string; password: string; isSeller?: boolean; displayName?: string; country?: string },
): Promise<User> {
  const taken = await q.accountNameTaken(db, input.username, input.email);
  if (taken[0]) throw new DomainError('invalid', taken[0].what === 'username' ? 'Username already taken' : 'E-mail already registered');
  const passwordHash = await hashPassword(input.password);
  try {
    const [created] = await q.insertAccount(
      db,
      input.username,
      input.email,
      passwordHash,
      input.isSeller ?? false,
      input.displayName ?? null,
      input.country ?? null,
    );
    return (await userById(db, created!.id))!;
  } catch (err) {
    // Two registrations racing for one name: the unique index decides, the loser hears why.
    if ((err as { code?: string }).code === '23505')
      throw new DomainError('invalid', /email/.test((err as Error).message) ? 'E-mail already registered' : 'Username already taken');
    throw err;
  }
}

export type SignInAccount = q.AccountRow & { password_hash: string | null };

/** The live account a canonical sign-in name (canonicalLogin) names, with its password hash; null names none. */
export async function accountForSignIn(db: Db, login: string | null): Promise<SignInAccount | null> {
  const [row] = login === null ? [] : await q.accountByLogin(db, login);
  return row ?? null;
}

/**
 * The account, when the password is right; deleted accounts never log in (accountForSignIn finds
 * none). No account costs the same password work as a wrong password.
 */
export async function checkPassword(account: SignInAccount | null, password: string): Promise<User | null> {
  const ok = await verifyPassword(password, account?.password_hash ?? null);
  if (!account || !ok) return null;
  const { password_hash: _hash, ...user } = account;
  return user;
}

export async function userById(db: Db, id: number): Promise<User | null> {
  const [user] = await q.accountById(db, id);
  return user ?? null;
}

export async function createSession(db: Db, userId: number): Promise<{ id: string; expiresAt: Date }> {
  const id = crypto.randomUUID();
  const expiresAt = new Date(Date.now() + SESSION_DAYS * 86_400_000);
  await q.insertSession(db, id, userId, expiresAt);
  return { id, expiresAt };
}

/** The user of a live session (not revoked, not expired, account not deleted). */
export async function sessionUser(db: Db, sessionId: string): Promise<User | null> {
  const [user] = await q.sessionAccount(db, sessionId);
  return user ?? null;
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await q.revokeSession(db, sessionId);
}

/** Sets a new password when the current one is right (true), else changes nothing (null: a failed guess the caller counts). */
export async function changePassword(db: Db, user: User, current: string, next: string): Promise<true | null> {
  const [row] = await q.passwordHashOf(db, user.id);
  if (!(await verifyPassword(current, row?.password_hash ?? null))) return null;
  // One statement: the new password and the end of every session land together or not at all.
  await q.changePasswordHash(db, user.id, await hashPassword(next));
  return true;
}

export const DELETION_COOLDOWN_HOURS = 24;

export async function requestDeletion(db: Db, user: User): Promise<string> {
  const [row] = await q.requestAccountDeletion(db, user.id, DELETION_COOLDOWN_HOURS);
  return row!.at;
}

export async function cancelDeletion(db: Db, user: User): Promise<void> {
  if (!user.delete_requested_at) throw new DomainError('invalid', 'No deletion was requested');
  await q.cancelAccountDeletion(db, user.id);
}

/**
 * The effective deletion, once the cooldown has passed: the account row is anonymised (it stays
 * so that rows other people rely on, such as transactions and reviews, keep a counterpart), every
 * secret and session goes, and the API keys are deleted.
 */
export async function deleteAccount(db: Db, user: User): Promise<void> {
  const [row] = await q.accountDeletionState(db, user.id, DELETION_COOLDOWN_HOURS);
  if (!row?.requested) throw new DomainError('invalid', 'Request the deletion first: POST /auth/account/delete-request');
  if (!row.ready)
    throw new DomainError(
      'invalid',
      `The account can be deleted ${DELETION_COOLDOWN_HOURS} hours after the request; until then the request can be cancelled`,
    );
  await q.anonymiseAccount(db, user.id);
}

// API keys: holo_ + 32 random bytes; the database keeps the SHA-256 digest and a short prefix to
// recognise the key by. A digest (not a slow hash) is right here: the secret has 256 bits.
export const KEY_PREFIX = 'holo_';
export const keyDigest = (key: string) => crypto.createHash('sha256').update(key).digest();

export type ApiKeyRecord = {
  id: number;
  name: string;
  prefix: string;
  tier: Tier;
  is_active: boolean;
  daily_limit: number | null;
  rate_limit_per_minute: number;
  calls_today: number;
  last_used_at: string | null;
  created_at: string;
  expires_at: string | null;
};

/** A key's limits: an operator's override, else its tier's. */
export const keyLimits = (tier: Tier, override: { daily_limit_override: number | null; per_minute_limit_override: number | null }) => ({
  perDay: override.daily_limit_override ?? TIERS[tier].perDay,
  perMinute: override.per_minute_limit_override ?? TIERS[tier].perMinute,
});

type ApiKeyRow = Awaited<ReturnType<typeof keys.apiKeyById>>[number];
const withLimits = ({ daily_limit_override, per_minute_limit_override, ...r }: ApiKeyRow): ApiKeyRecord => {
  const limits = keyLimits(r.tier, { daily_limit_override, per_minute_limit_override });
  return { ...r, daily_limit: limits.perDay, rate_limit_per_minute: limits.perMinute };
};

export async function listKeys(db: Db, userId: number): Promise<ApiKeyRecord[]> {
  return (await keys.apiKeysOf(db, userId)).map(withLimits);
}

export async function createKey(
  db: Db,
  user: User,
  input: { name: string; tier?: Tier; expires_at?: string },
): Promise<ApiKeyRecord & { key: string }> {
  const tier = input.tier ?? user.tier;
  if (!keyTierWithin(tier, user.tier))
    throw new DomainError('forbidden', `Your subscription is ${user.tier}: keys can be created on it or a lower tier, not on ${tier}`);
  const key = `${KEY_PREFIX}${crypto.randomBytes(32).toString('base64url')}`;
  // The account row is locked while counting, so two concurrent creations cannot both pass the cap;
  // the same update records developer access (creating a key accepts the API terms).
  const row = await db.transaction(async (tx) => {
    await q.enableDeveloper(tx, user.id);
    const [active] = await keys.activeApiKeyCount(tx, user.id);
    if (active!.n >= TIERS[tier].keys)
      throw new DomainError(
        'forbidden',
        `The ${TIERS[tier].label} tier allows ${TIERS[tier].keys} API key${TIERS[tier].keys === 1 ? '' : 's'}; revoke one first`,
      );
    const [inserted] = await keys.insertApiKey(tx, user.id, input.name, key.slice(0, 12), keyDigest(key), tier, input.expires_at ?? null);
    return (await keys.apiKeyById(tx, inserted!.id))[0]!;
  });
  return { ...withLimits(row), key };
}

/** Records that the account accepted the API terms (the portal's "enable access"); idempotent. */
export async function enableDeveloperAccess(db: Db, userId: number): Promise<void> {
  await q.enableDeveloper(db, userId);
}

export async function revokeKey(db: Db, userId: number, keyId: number): Promise<boolean> {
  return (await keys.revokeApiKey(db, keyId, userId)).length === 1;
}

/** One own key by id (not revoked), with its limits. */
export async function keyRecord(db: Db, keyId: number): Promise<ApiKeyRecord | null> {
  const [row] = await keys.apiKeyById(db, keyId);
  return row ? withLimits(row) : null;
}

/** The key a caller means by "my key": the one it called with, else its account's newest usable key. */
export async function developerKey(db: Db, userId: number, callingKeyId: number | null): Promise<ApiKeyRecord | null> {
  const keyId = callingKeyId ?? (await keys.newestApiKeyOf(db, userId))[0]?.id;
  return keyId === undefined ? null : keyRecord(db, keyId);
}

export type AdminKeyChange = {
  tier?: Tier;
  daily_limit?: number | null;
  rate_limit_per_minute?: number | null;
  is_active?: boolean;
};

/** An operator's change to any key that is not revoked; null when there is none with that id. */
export async function adminUpdateKey(db: Db, keyId: number, change: AdminKeyChange): Promise<ApiKeyRecord | null> {
  const [row] = await keys.adminUpdateApiKey(
    db,
    keyId,
    change.tier ?? null,
    change.daily_limit !== undefined,
    change.daily_limit ?? null,
    change.rate_limit_per_minute !== undefined,
    change.rate_limit_per_minute ?? null,
    change.is_active ?? null,
  );
  return row ? keyRecord(db, row.id) : null;
}

export type KeyOwner = {
  keyId: number;
  tier: Tier;
  limits: { perDay: number | null; perMinute: number };
  user: User;
  expiresAt: string | null;
};

/** The live key a presented secret names (active, not revoked, not expired, owner not deleted). */
export async function keyOwner(db: Db, key: string): Promise<KeyOwner | null> {
  if (!key.startsWith(KEY_PREFIX) || key.length > 200) return null;
  const [row] = await keys.apiKeyOwner(db, keyDigest(key));
  if (!row) return null;
  const user = await userById(db, row.user_id);
  return user ? { keyId: row.key_id, tier: row.key_tier, limits: keyLimits(row.key_tier, row), user, expiresAt: row.expires_at } : null;
}
