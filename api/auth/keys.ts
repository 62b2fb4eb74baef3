// API keys as their owner and operators see them (spec: "API key record"): each with today's live
// call count (Redis), a change dropped from every instance's key cache at once. The records and
// their limits come from accounts.ts; keysPresenter.ts shapes the developer's summary.
import type { AppDeps } from '../deps.js';
import {
  adminUpdateKey,
  createKey,
  developerKey,
  enableDeveloperAccess,
  listKeys,
  revokeKey,
  userById,
  type AdminKeyChange,
  type ApiKeyRecord,
  type User,
} from './accounts.js';
import { withLiveCalls } from './rateLimit.js';
import type { Principal } from './principal.js';
import { recognitionQuota } from '../recognition/quota.js';
import { DomainError, NotFound } from '../../schemas/errors.js';

type KeyDeps = Pick<AppDeps, 'db' | 'stores' | 'config' | 'keyCache'>;

const live = async (deps: KeyDeps, key: ApiKeyRecord | null | undefined) => {
  if (!key) throw new NotFound('API key');
  return (await withLiveCalls(deps, [key]))[0]!;
};

/** The account's keys (never the secret). */
export const ownKeys = async (deps: KeyDeps, userId: number) => withLiveCalls(deps, await listKeys(deps.db, userId));

/** One of the account's keys by its name; 404 when it has none of that name. */
export const ownKeyByName = async (deps: KeyDeps, userId: number, name: string) =>
  live(
    deps,
    (await listKeys(deps.db, userId)).find((k) => k.name === name),
  );

/** Revokes one of the account's keys: it stops working at once on every instance. */
export async function revokeOwnKey(deps: KeyDeps, userId: number, keyId: number): Promise<void> {
  // Another user's key id is "not found": ownership is part of the lookup.
  if (!(await revokeKey(deps.db, userId, keyId))) throw new NotFound('API key');
  await deps.keyCache.changed(`key:${keyId}`);
}

/** The key the caller called with, else (a session) its account's newest usable key; 404 when none. */
export const developerKeyOf = async (deps: KeyDeps, user: User, principal: Principal) =>
  live(deps, await developerKey(deps.db, user.id, principal.kind === 'key' ? principal.keyId : null));

/** The account, how many keys it has and its recognition quota. */
export async function developerInfoOf(deps: KeyDeps, user: User, principal: Principal) {
  return {
    user,
    keys: (await listKeys(deps.db, user.id)).length,
    recognition: await recognitionQuota({ redis: deps.stores.redis, redisPrefix: deps.config.redisPrefix }, principal, user),
  };
}

/** An operator's change to any key not revoked, effective at once on every instance; 404 when there is none. */
export async function changeKey(deps: KeyDeps, keyId: number, change: AdminKeyChange) {
  const key = await adminUpdateKey(deps.db, keyId, change);
  if (!key) throw new NotFound('API key');
  await deps.keyCache.changed(`key:${key.id}`);
  return (await withLiveCalls(deps, [key]))[0]!;
}

/** Revokes one of the account's keys and returns it (the page names it); 404 when it is not the account's. */
export async function revokeOwnKeyRecord(deps: KeyDeps, userId: number, keyId: number): Promise<ApiKeyRecord> {
  const key = (await listKeys(deps.db, userId)).find((k) => k.id === keyId);
  // Another account's key is "not found": ownership is part of the lookup.
  if (!key || !(await revokeKey(deps.db, userId, key.id))) throw new NotFound('API key');
  await deps.keyCache.changed(`key:${key.id}`);
  return key;
}

/** A key created from the portal: only once the account has accepted the API terms (403 before). */
export async function createPortalKey({ db }: Pick<KeyDeps, 'db'>, user: User, name: string) {
  if (!user.developer_enabled_at) throw new DomainError('forbidden', 'Enable API access first (/enable)');
  return createKey(db, user, { name });
}

/** Records that the account accepted the API terms; the account as it is now. */
export async function enableApiAccess({ db }: Pick<KeyDeps, 'db'>, userId: number): Promise<User> {
  await enableDeveloperAccess(db, userId);
  return (await userById(db, userId))!;
}
