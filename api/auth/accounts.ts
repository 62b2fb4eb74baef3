// Accounts, sessions and API keys in PostgreSQL. Every function takes the Db wrapper (a store
// outage is a 503) or, where several writes must stand together, a transaction.
import crypto from 'node:crypto';
import { utcIsoSql, type Db } from '../../sql/stores/db.js';
import { DomainError } from '../../schemas/errors.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { SESSION_DAYS } from './sessionTokens.js';
import { TIERS, type Tier } from '../../schemas/tiers.js';

export type User = {
  id: number;
  username: string;
  email: string;
  is_admin: boolean;
  is_seller: boolean;
  created_at: string;
  tier: Tier;
  delete_requested_at: string | null;
  developer_enabled_at: string | null;
};

const userColumns = (
  t = '',
) => `${t}id, ${t}username, ${t}email, ${t}is_admin, ${t}is_seller, ${t}tier, ${t}delete_requested_at, ${t}developer_enabled_at::text AS developer_enabled_at,
  ${utcIsoSql(`${t}created_at`)} AS created_at`;
const USER_COLUMNS = userColumns();

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
  const taken = await db.query<{ what: string }>(
    `SELECT CASE WHEN username = $1 THEN 'username' ELSE 'email' END AS what FROM users WHERE username = $1 OR (lower(email) = lower($2) AND deleted_at IS NULL) LIMIT 1`,
    [input.username, input.email],
  );
  if (taken[0]) throw new DomainError('invalid', taken[0].what === 'username' ? 'Username already taken' : 'E-mail already registered');
  const passwordHash = await hashPassword(input.password);
  try {
    const [user] = await db.query<User>(
      `INSERT INTO users (username, email, password_hash, is_seller, display_name, country) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${USER_COLUMNS}`,
      [input.username, input.email, passwordHash, input.isSeller ?? false, input.displayName ?? null, input.country ?? null],
    );
    return user!;
  } catch (err) {
    // Two registrations racing for one name: the unique index decides, the loser hears why.
    if ((err as { code?: string }).code === '23505')
      throw new DomainError('invalid', /email/.test((err as Error).message) ? 'E-mail already registered' : 'Username already taken');
    throw err;
  }
}

/** The account a username or e-mail names, when the password is right; deleted accounts never log in. */
export async function checkCredentials(db: Db, login: string, password: string): Promise<User | null> {
  const [row] = await db.query<User & { password_hash: string | null }>(
    `SELECT ${USER_COLUMNS}, password_hash FROM users WHERE (username = lower($1) OR lower(email) = lower($1)) AND deleted_at IS NULL LIMIT 1`,
    [login],
  );
  const ok = await verifyPassword(password, row?.password_hash ?? null);
  if (!row || !ok) return null;
  const { password_hash: _hash, ...user } = row;
  return user;
}

export async function userById(db: Db, id: number): Promise<User | null> {
  const [user] = await db.query<User>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1 AND deleted_at IS NULL`, [id]);
  return user ?? null;
}

export async function createSession(db: Db, userId: number): Promise<{ id: string; expiresAt: Date }> {
  const id = crypto.randomUUID();
  const expiresAt = new Date(Date.now() + SESSION_DAYS * 86_400_000);
  await db.query('INSERT INTO sessions (id, user_id, expires_at) VALUES ($1, $2, $3)', [id, userId, expiresAt]);
  return { id, expiresAt };
}

/** The user of a live session (not revoked, not expired, account not deleted). */
export async function sessionUser(db: Db, sessionId: string): Promise<User | null> {
  const [user] = await db.query<User>(
    `SELECT ${userColumns('u.')}
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > now() AND u.deleted_at IS NULL`,
    [sessionId],
  );
  return user ?? null;
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db.query('UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [sessionId]);
}

export async function changePassword(db: Db, user: User, current: string, next: string): Promise<void> {
  const [row] = await db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [user.id]);
  if (!(await verifyPassword(current, row?.password_hash ?? null))) throw new DomainError('invalid', 'Current password is wrong');
  // One statement: the new password and the end of every session land together or not at all.
  await db.query(
    `WITH changed AS (UPDATE users SET password_hash = $2 WHERE id = $1 RETURNING id)
     UPDATE sessions SET revoked_at = now() WHERE user_id IN (SELECT id FROM changed) AND revoked_at IS NULL`,
    [user.id, await hashPassword(next)],
  );
}

export const DELETION_COOLDOWN_HOURS = 24;

export async function requestDeletion(db: Db, user: User): Promise<string> {
  const [row] = await db.query<{ at: string }>(
    `UPDATE users SET delete_requested_at = coalesce(delete_requested_at, now()) WHERE id = $1
     RETURNING ${utcIsoSql(`(delete_requested_at + interval '${DELETION_COOLDOWN_HOURS} hours')`)} AS at`,
    [user.id],
  );
  return row!.at;
}

export async function cancelDeletion(db: Db, user: User): Promise<void> {
  if (!user.delete_requested_at) throw new DomainError('invalid', 'No deletion was requested');
  await db.query('UPDATE users SET delete_requested_at = NULL WHERE id = $1', [user.id]);
}

/**
 * The effective deletion, once the cooldown has passed: the account row is anonymised (it stays
 * so that rows other people rely on, such as transactions and reviews, keep a counterpart), every
 * secret and session goes, and the API keys are deleted.
 */
export async function deleteAccount(db: Db, user: User): Promise<void> {
  const [row] = await db.query<{ ready: boolean; requested: boolean }>(
    `SELECT delete_requested_at IS NOT NULL AS requested, delete_requested_at <= now() - interval '${DELETION_COOLDOWN_HOURS} hours' AS ready FROM users WHERE id = $1`,
    [user.id],
  );
  if (!row?.requested) throw new DomainError('invalid', 'Request the deletion first: POST /auth/account/delete-request');
  if (!row.ready)
    throw new DomainError(
      'invalid',
      `The account can be deleted ${DELETION_COOLDOWN_HOURS} hours after the request; until then the request can be cancelled`,
    );
  await db.query(
    `WITH gone AS (DELETE FROM api_keys WHERE user_id = $1), s AS (DELETE FROM sessions WHERE user_id = $1)
     UPDATE users SET username = 'deleted-' || id, email = NULL, password_hash = NULL, display_name = NULL, country = NULL,
                      is_seller = false, deleted_at = now() WHERE id = $1`,
    [user.id],
  );
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

const KEY_COLUMNS = `id, name, prefix, tier, (is_active AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())) AS is_active,
  CASE WHEN calls_day = (now() AT TIME ZONE 'UTC')::date THEN calls_today ELSE 0 END AS calls_today,
  ${utcIsoSql('last_used_at')} AS last_used_at, ${utcIsoSql('created_at')} AS created_at, ${utcIsoSql('expires_at')} AS expires_at`;

const withLimits = (r: Omit<ApiKeyRecord, 'daily_limit' | 'rate_limit_per_minute'>): ApiKeyRecord => ({
  ...r,
  daily_limit: TIERS[r.tier].perDay,
  rate_limit_per_minute: TIERS[r.tier].perMinute,
});

export async function listKeys(db: Db, userId: number): Promise<ApiKeyRecord[]> {
  return (
    await db.query<Omit<ApiKeyRecord, 'daily_limit' | 'rate_limit_per_minute'>>(
      `SELECT ${KEY_COLUMNS} FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL ORDER BY id`,
      [userId],
    )
  ).map(withLimits);
}

export async function createKey(
  db: Db,
  user: User,
  input: { name: string; tier?: Tier; expires_at?: string },
): Promise<ApiKeyRecord & { key: string }> {
  const tier = input.tier ?? user.tier;
  if (input.tier && input.tier !== user.tier)
    throw new DomainError('forbidden', `Your subscription is ${user.tier}: keys can only be created on it`);
  const key = `${KEY_PREFIX}${crypto.randomBytes(32).toString('base64url')}`;
  // The account row is locked while counting, so two concurrent creations cannot both pass the cap;
  // the same update records developer access (creating a key accepts the API terms).
  const row = await db.transaction(async (tx) => {
    await tx.query('UPDATE users SET developer_enabled_at = coalesce(developer_enabled_at, now()) WHERE id = $1', [user.id]);
    const [active] = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL`, [
      user.id,
    ]);
    if (active!.n >= TIERS[tier].keys)
      throw new DomainError(
        'forbidden',
        `The ${TIERS[tier].label} tier allows ${TIERS[tier].keys} API key${TIERS[tier].keys === 1 ? '' : 's'}; revoke one first`,
      );
    const [inserted] = await tx.query<Omit<ApiKeyRecord, 'daily_limit' | 'rate_limit_per_minute'>>(
      `INSERT INTO api_keys (user_id, name, prefix, key_hash, tier, expires_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${KEY_COLUMNS}`,
      [user.id, input.name, key.slice(0, 12), keyDigest(key), tier, input.expires_at ?? null],
    );
    return inserted!;
  });
  return { ...withLimits(row), key };
}

/** Records that the account accepted the API terms (the portal's "enable access"); idempotent. */
export async function enableDeveloperAccess(db: Db, userId: number): Promise<void> {
  await db.query('UPDATE users SET developer_enabled_at = coalesce(developer_enabled_at, now()) WHERE id = $1', [userId]);
}

export async function revokeKey(db: Db, userId: number, keyId: number): Promise<boolean> {
  const rows = await db.query<{ id: number }>(
    'UPDATE api_keys SET revoked_at = now(), is_active = false WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id',
    [keyId, userId],
  );
  return rows.length === 1;
}

export type KeyOwner = { keyId: number; tier: Tier; user: User; expiresAt: string | null };

/** The live key a presented secret names (active, not revoked, not expired, owner not deleted). */
export async function keyOwner(db: Db, key: string): Promise<KeyOwner | null> {
  if (!key.startsWith(KEY_PREFIX) || key.length > 200) return null;
  const [row] = await db.query<{ key_id: number; key_tier: Tier; user_id: number; expires_at: string | null }>(
    `SELECT k.id AS key_id, k.tier AS key_tier, k.user_id, k.expires_at::text AS expires_at FROM api_keys k JOIN users u ON u.id = k.user_id
     WHERE k.key_hash = $1 AND k.is_active AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now()) AND u.deleted_at IS NULL`,
    [keyDigest(key)],
  );
  if (!row) return null;
  const user = await userById(db, row.user_id);
  return user ? { keyId: row.key_id, tier: row.key_tier, user, expiresAt: row.expires_at } : null;
}
