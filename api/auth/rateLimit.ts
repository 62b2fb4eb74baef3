// Per-key and per-address request limits (spec: the tier table; anonymous 30 a minute per IP),
// counted atomically in Redis, with X-RateLimit-* and the IETF RateLimit headers on every answer.
import type { Context } from 'koa';
import type { RedisStore } from '../../sql/stores/redis.js';
import { recordApiKeyUsage } from '../../sql/keys.js';
import type { AuthDeps, Principal } from './principal.js';
import { RateLimited } from '../../schemas/errors.js';

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

/** The next midnight UTC, in milliseconds: when daily counters start again. */
export const midnightUtc = (now: number) => Math.ceil((now + 1) / 86_400_000) * 86_400_000;

/** A counted call: the limits' state, and seconds to wait when it went past one (null: within). */
export type CountedCall = { decision: NonNullable<RateDecision>; retryAfter: number | null };

/**
 * Counts a call of a key or an anonymous address in Redis (one round trip, atomic): per key per
 * minute and per UTC day, anonymous callers `anonymousPerMinute` a minute per client IP. A call
 * past a limit is counted too, so parallel callers can never slip past a limit between the check
 * and the count.
 */
export async function countCall(
  principal: Extract<Principal, { kind: 'key' | 'anonymous' }>,
  ip: string,
  deps: Pick<AuthDeps, 'redis' | 'redisPrefix' | 'anonymousPerMinute' | 'db'>,
  now = Date.now(),
): Promise<CountedCall> {
  const minute = Math.floor(now / 60_000);
  const minuteReset = (minute + 1) * 60;
  const dayReset = midnightUtc(now) / 1000;
  const perMinute = principal.kind === 'key' ? principal.limits.perMinute : deps.anonymousPerMinute;
  const perDay = principal.kind === 'key' ? principal.limits.perDay : null;
  const who = principal.kind === 'key' ? `k:${principal.keyId}` : `ip:${ip}`;
  const base = `${deps.redisPrefix}:rl:${who}`;
  const day = principal.kind === 'key' ? new Date(now).toISOString().slice(0, 10) : '';
  const windows = [{ key: `${base}:m:${minute}`, ttlSeconds: 120 }];
  if (perDay !== null) windows.push({ key: `${base}:d:${day}`, ttlSeconds: 2 * 86_400 });
  const [usedMinute, usedDay] = await deps.redis.incrMany(windows);
  // calls_today and last_used_at reach PostgreSQL once a minute per key, off the request path.
  if (principal.kind === 'key' && usedMinute === 1) {
    recordApiKeyUsage(deps.db, principal.keyId, usedDay ?? 0, day).catch(() => undefined);
  }
  const nowSeconds = Math.ceil(now / 1000);
  const minuteLeft = perMinute - usedMinute!;
  const dayLeft = perDay === null ? Infinity : perDay - usedDay!;
  const tight =
    dayLeft < minuteLeft ? { name: 'day', left: dayLeft, reset: dayReset } : { name: 'minute', left: minuteLeft, reset: minuteReset };
  const decision = {
    limit: perMinute,
    remaining: Math.max(0, Math.min(minuteLeft, dayLeft)),
    reset: tight.reset,
    policy: policyOf(perMinute, perDay),
    state: `"${tight.name}";r=${Math.max(0, tight.left)};t=${Math.max(0, tight.reset - nowSeconds)}`,
  };
  const retryAfter =
    minuteLeft < 0 || dayLeft < 0 ? Math.max(1, (minuteLeft < 0 && dayLeft >= 0 ? minuteReset : dayReset) - nowSeconds) : null;
  return { decision, retryAfter };
}

/**
 * Counts the call and refuses it with 429 past a limit (see countCall); session users and the
 * operator are not limited. Sets the limit headers on every answer.
 */
export async function rateLimit(
  ctx: Context,
  principal: Principal,
  deps: Pick<AuthDeps, 'redis' | 'redisPrefix' | 'anonymousPerMinute' | 'db'>,
  now = Date.now(),
): Promise<RateDecision> {
  if (principal.kind === 'session' || principal.kind === 'operator') return null;
  const { decision, retryAfter } = await countCall(principal, ctx.ip, deps, now);
  ctx.set(rateHeaders(decision));
  if (retryAfter !== null) {
    throw new RateLimited(`Rate limit exceeded. Retry after ${retryAfter} seconds.`, retryAfter);
  }
  return decision;
}

/** X-RateLimit-* and the IETF draft-ietf-httpapi-ratelimit-headers (the policies, and the tightest one's state). */
export function rateHeaders(d: NonNullable<RateDecision>): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(d.limit),
    'X-RateLimit-Remaining': String(d.remaining),
    'X-RateLimit-Reset': String(d.reset),
    'RateLimit-Policy': d.policy,
    RateLimit: d.state,
  };
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
