// Who is calling (spec, Authentication): an API key (Authorization: Bearer, X-API-Key, or the
// discouraged api_key query parameter), the session cookie, the operator token, or nobody. Then
// the route's access tag decides (401 without valid credentials, 403 when the tier, ownership or
// admin flag falls short). The rate limiter (rateLimit.ts) counts the call; guard.ts runs all three.
import type { Context } from 'koa';
import type { Db } from '../../sql/stores/db.js';
import type { RedisStore } from '../../sql/stores/redis.js';
import type { Tokens } from '../../sql/runtime/signedTokens.js';
import type { AdminGuard } from '../http/adminToken.js';
import { keyDigest, keyOwner, type KeyOwner, type User } from './accounts.js';
import type { KeyCache } from './keyCache.js';
import { cookieSession } from './sessionCookie.js';
import { atLeast, isBusinessTier, TIERS, type Tier } from '../../schemas/tiers.js';
import { DomainError } from '../../schemas/errors.js';

// business+ (Business-segment tiers: legacy Business, Shop Basic and up) is ours: the spec sells
// webhooks to "Business and up" without naming a tag for it.
/** The spec's access tags, and `signed`: a caller without credentials whose request the handler
 *  proves by its signature (a payment provider's webhook), not rate limited per address. */
export type Access = 'free' | 'signed' | 'auth' | 'starter+' | 'pro+' | 'pro+|admin' | 'business+' | 'admin';

export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'operator' }
  | { kind: 'session'; user: User; sessionId: string }
  | { kind: 'key'; user: User; keyId: number; tier: Tier; limits: KeyOwner['limits'] };

export type AuthDeps = {
  db: Db;
  redis: RedisStore;
  redisPrefix: string;
  tokens: Tokens;
  admin: AdminGuard;
  anonymousPerMinute: number;
  keyCache: KeyCache;
};

function presentedKey(ctx: Context): string | null {
  const bearer = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'))?.[1];
  if (bearer) return bearer;
  const header = ctx.get('x-api-key');
  if (header) return header.trim();
  const query = ctx.query['api_key'];
  return typeof query === 'string' && query ? query : null;
}

/** The live key a presented secret names, from this process's cache or PostgreSQL. */
export async function resolveApiKey(deps: Pick<AuthDeps, 'db' | 'keyCache'>, key: string): Promise<KeyOwner | null> {
  const digest = keyDigest(key).toString('hex');
  let owner = deps.keyCache.get(digest) ?? null;
  if (!owner) {
    owner = await keyOwner(deps.db, key);
    if (owner) deps.keyCache.set(digest, owner, owner.expiresAt);
  }
  return owner;
}

/** The caller an API key makes: its owner, held to the key's own tier and limits. */
export const keyPrincipal = (owner: Pick<KeyOwner, 'user' | 'keyId' | 'tier' | 'limits'>): Principal & { kind: 'key' } => ({
  kind: 'key',
  user: owner.user,
  keyId: owner.keyId,
  tier: owner.tier,
  limits: owner.limits,
});

/** Resolves the caller once per request (ctx.state.principal); invalid credentials are a 401. */
export async function principalOf(ctx: Context, deps: AuthDeps): Promise<Principal> {
  if (ctx.state.principal) return ctx.state.principal as Principal;
  let principal: Principal = { kind: 'anonymous' };
  const key = presentedKey(ctx);
  if (key) {
    if (deps.admin.isOperatorToken(key)) principal = { kind: 'operator' };
    else {
      const owner = await resolveApiKey(deps, key);
      if (!owner) {
        ctx.set('WWW-Authenticate', 'Bearer realm="holo"');
        throw new DomainError('unauthenticated', 'Invalid or revoked API key');
      }
      principal = keyPrincipal(owner);
    }
  } else if (ctx.headers.cookie) {
    // Most calls carry no cookie: they skip the session lookup without an extra await.
    const session = await cookieSession(ctx, deps.db, deps.tokens);
    if (session) principal = { kind: 'session', ...session };
  }
  ctx.state.principal = principal;
  return principal;
}

/**
 * 401 or 403 unless the caller may use a route tagged `access`. A session is the website's own
 * caller: the spec admits it to starter+ whatever its tier ("Starter tier or higher, or session
 * cookie"), but to tiered data (pro+, pro+|admin, business+) only at its account's tier, as a key
 * at its key's tier; otherwise a Free account's cookie would be a Pro key.
 */
export function authorise(principal: Principal, access: Access): void {
  if (access === 'free' || access === 'signed') return;
  if (principal.kind === 'anonymous') throw new DomainError('unauthenticated', 'Not authenticated');
  if (principal.kind === 'operator') return;
  if (access === 'auth') return;
  if (access === 'admin') {
    if (!principal.user.is_admin) throw new DomainError('forbidden', 'Administrators only');
    return;
  }
  const tier = principal.kind === 'key' ? principal.tier : principal.user.tier;
  const whose = principal.kind === 'key' ? 'key' : 'account';
  if (access === 'business+') {
    if (!isBusinessTier(tier))
      throw new DomainError(
        'forbidden',
        `This endpoint needs a Business tier (Shop Basic or higher); this ${whose} is ${TIERS[tier].label}`,
      );
    return;
  }
  if (access === 'starter+' && principal.kind === 'session') return;
  // pro+|admin (direct ClickHouse access): Pro and up, or an administrator of any tier.
  if (access === 'pro+|admin' && principal.user.is_admin) return;
  const minimum = access === 'starter+' ? 'starter' : 'pro';
  if (!atLeast(tier, minimum))
    throw new DomainError(
      'forbidden',
      `This endpoint needs the ${TIERS[minimum].label} tier or higher; this ${whose} is ${TIERS[tier].label}`,
    );
}
