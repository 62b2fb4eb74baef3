// Who is calling (spec, Authentication): an API key (Authorization: Bearer, X-API-Key, or the
// discouraged api_key query parameter), the session cookie, the operator token, or nobody. Then
// the route's access tag decides (401 without valid credentials, 403 when the tier, ownership or
// admin flag falls short), and the rate limiter counts the call.
import type { Context } from 'koa';
import type { Db } from '../../sql/stores/db.js';
import type { RedisStore } from '../../sql/stores/redis.js';
import type { AdminGuard } from '../http/adminToken.js';
import { HttpError } from '../http/errors.js';
import { keyDigest, keyOwner, type KeyOwner, type User } from './accounts.js';
import type { KeyCache } from './keyCache.js';
import { cookieSession } from './sessionCookie.js';
import { atLeast, isBusinessTier, TIERS, type Tier } from '../../schemas/tiers.js';

// business+ (Business-segment tiers: legacy Business, Shop Basic and up) is ours: the spec sells
// webhooks to "Business and up" without naming a tag for it.
export type Access = 'free' | 'auth' | 'starter+' | 'pro+' | 'business+' | 'admin';

export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'operator' }
  | { kind: 'session'; user: User; sessionId: string }
  | { kind: 'key'; user: User; keyId: number; tier: Tier };

export type AuthDeps = {
  db: Db;
  redis: RedisStore;
  redisPrefix: string;
  sessionSecret: string;
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
        throw new HttpError(401, 'Invalid or revoked API key');
      }
      principal = { kind: 'key', user: owner.user, keyId: owner.keyId, tier: owner.tier };
    }
  } else if (ctx.headers.cookie) {
    // Most calls carry no cookie: they skip the session lookup without an extra await.
    const session = await cookieSession(ctx, deps.db, deps.sessionSecret);
    if (session) principal = { kind: 'session', ...session };
  }
  ctx.state.principal = principal;
  return principal;
}

/** 401 or 403 unless the caller may use a route tagged `access`. Session users count as Starter+. */
export function authorize(principal: Principal, access: Access): void {
  if (access === 'free') return;
  if (principal.kind === 'anonymous') throw new HttpError(401, 'Not authenticated');
  if (principal.kind === 'operator') return;
  if (access === 'admin') {
    if (!principal.user.is_admin) throw new HttpError(403, 'Administrators only');
    return;
  }
  if (access === 'business+') {
    const tier = principal.kind === 'key' ? principal.tier : principal.user.tier;
    if (!isBusinessTier(tier))
      throw new HttpError(
        403,
        `This endpoint needs a Business tier (Shop Basic or higher); this ${principal.kind === 'key' ? 'key' : 'account'} is ${TIERS[tier].label}`,
      );
    return;
  }
  if (access === 'auth' || principal.kind === 'session') return;
  const minimum = access === 'starter+' ? 'starter' : 'pro';
  if (!atLeast(principal.tier, minimum))
    throw new HttpError(403, `This endpoint needs the ${TIERS[minimum].label} tier or higher; this key is ${TIERS[principal.tier].label}`);
}

/** Everything a route's access tag needs, in order: who, may they, and within their limits. */
export async function guard(ctx: Context, access: Access, deps: AuthDeps): Promise<Principal> {
  const principal = await principalOf(ctx, deps);
  authorize(principal, access);
  await rateLimit(ctx, principal, deps);
  return principal;
}

export type RateDecision = { limit: number; remaining: number; reset: number; policy: string; state: string } | null;

// The RateLimit-Policy value of each pair of limits, built once.
const policies = new Map<string, string>();
function policyOf(perMinute: number, perDay: number | null): string {
  const id = `${perMinute}|${perDay}`;
  let policy = policies.get(id);
  if (policy === undefined) {
    policy = [`"minute";q=${perMinute};w=60`, ...(perDay === null ? [] : [`"day";q=${perDay};w=86400`])].join(', ');
    policies.set(id, policy);
  }
  return policy;
}

const midnightUtc = (now: number) => Math.ceil((now + 1) / 86_400_000) * 86_400_000;

/**
 * Counts the call in Redis (one round trip, atomic) and refuses it with 429 past a limit: per key
 * per minute and per UTC day, anonymous callers 30 a minute per client IP; session users and the
 * operator are not limited. A refused call is counted too, so parallel callers can never slip
 * past a limit between the check and the count.
 */
export async function rateLimit(
  ctx: Context,
  principal: Principal,
  deps: Pick<AuthDeps, 'redis' | 'redisPrefix' | 'anonymousPerMinute' | 'db'>,
  now = Date.now(),
): Promise<RateDecision> {
  if (principal.kind === 'session' || principal.kind === 'operator') return null;
  const minute = Math.floor(now / 60_000);
  const minuteReset = (minute + 1) * 60;
  const dayReset = midnightUtc(now) / 1000;
  const perMinute = principal.kind === 'key' ? TIERS[principal.tier].perMinute : deps.anonymousPerMinute;
  const perDay = principal.kind === 'key' ? TIERS[principal.tier].perDay : null;
  const who = principal.kind === 'key' ? `k:${principal.keyId}` : `ip:${ctx.ip}`;
  const base = `${deps.redisPrefix}:rl:${who}`;
  const day = principal.kind === 'key' ? new Date(now).toISOString().slice(0, 10) : '';
  const windows = [{ key: `${base}:m:${minute}`, ttlSeconds: 120 }];
  if (perDay !== null) windows.push({ key: `${base}:d:${day}`, ttlSeconds: 2 * 86_400 });
  const [usedMinute, usedDay] = await deps.redis.incrMany(windows);
  // calls_today and last_used_at reach PostgreSQL once a minute per key, off the request path.
  if (principal.kind === 'key' && usedMinute === 1) {
    deps.db
      .query(`UPDATE api_keys SET last_used_at = now(), calls_today = $2, calls_day = $3 WHERE id = $1`, [
        principal.keyId,
        usedDay ?? 0,
        day,
      ])
      .catch(() => undefined);
  }
  const nowSeconds = Math.ceil(now / 1000);
  const minuteLeft = perMinute - usedMinute!;
  const dayLeft = perDay === null ? Infinity : perDay - usedDay!;
  const policy = policyOf(perMinute, perDay);
  const tight =
    dayLeft < minuteLeft ? { name: 'day', left: dayLeft, reset: dayReset } : { name: 'minute', left: minuteLeft, reset: minuteReset };
  const decision = {
    limit: perMinute,
    remaining: Math.max(0, Math.min(minuteLeft, dayLeft)),
    reset: tight.reset,
    policy,
    state: `"${tight.name}";r=${Math.max(0, tight.left)};t=${Math.max(0, tight.reset - nowSeconds)}`,
  };
  setRateHeaders(ctx, decision);
  if (minuteLeft < 0 || dayLeft < 0) {
    const retryAfter = Math.max(1, (minuteLeft < 0 && dayLeft >= 0 ? minuteReset : dayReset) - nowSeconds);
    ctx.set('Retry-After', String(retryAfter));
    throw new HttpError(429, `Rate limit exceeded. Retry after ${retryAfter} seconds.`);
  }
  return decision;
}

function setRateHeaders(ctx: Context, d: NonNullable<RateDecision>): void {
  ctx.set('X-RateLimit-Limit', String(d.limit));
  ctx.set('X-RateLimit-Remaining', String(d.remaining));
  ctx.set('X-RateLimit-Reset', String(d.reset));
  // IETF draft-ietf-httpapi-ratelimit-headers: the policies, and the tightest one's state.
  ctx.set('RateLimit-Policy', d.policy);
  ctx.set('RateLimit', d.state);
}

/** Today's calls of a key as the rate limiter counts them (live, unlike the per-minute copy in PostgreSQL). */
export async function callsToday(deps: Pick<AuthDeps, 'redis' | 'redisPrefix'>, keyId: number, now = Date.now()): Promise<number | null> {
  const value = await deps.redis.get(`${deps.redisPrefix}:rl:k:${keyId}:d:${new Date(now).toISOString().slice(0, 10)}`).catch(() => null);
  return value === null ? null : Number(value);
}

/** Keys with calls_today as the rate limiter counts it right now (PostgreSQL holds a once-a-minute copy). */
export async function withLiveCalls<K extends { id: number; calls_today: number }>(
  deps: { stores: { redis: RedisStore }; config: { redisPrefix: string } },
  keys: K[],
): Promise<K[]> {
  const live = await Promise.all(keys.map((k) => callsToday({ redis: deps.stores.redis, redisPrefix: deps.config.redisPrefix }, k.id)));
  return keys.map((k, i) => ({ ...k, calls_today: live[i] ?? k.calls_today }));
}
