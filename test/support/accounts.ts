// Accounts on a given tier with one API key, made through the same functions the API uses.
import { createKey, createUser, type User } from '../../api/auth/accounts.js';
import type { Tier } from '../../schemas/tiers.js';
import { createDb } from '../../sql/stores/db.js';
import type { Stack } from './stack.js';

export type KeyedAccount = { user: User; key: string; headers: Record<string, string> };

/** An account on `tier` with one key, on the account's tier or, with `keyTier`, a lower one. */
export async function accountWithKey(
  stack: Stack,
  username: string,
  tier: Tier,
  opts: { admin?: boolean; keyTier?: Tier } = {},
): Promise<KeyedAccount> {
  const db = createDb(stack.stores.pg.pool);
  const created = await createUser(db, { username, email: `${username}@example.com`, password: 'long enough password' });
  await stack.stores.pg.pool.query('UPDATE users SET tier = $2, is_admin = $3 WHERE id = $1', [created.id, tier, opts.admin ?? false]);
  const user = { ...created, tier, is_admin: opts.admin ?? false };
  const { key } = await createKey(db, user, { name: `${username} key`, tier: opts.keyTier });
  return { user, key, headers: { Authorization: `Bearer ${key}` } };
}
