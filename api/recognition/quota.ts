// Recognitions per UTC day by tier (spec: the tier table's Recognition/day), counted per account
// atomically in Redis like the rate limits: a call past the quota is counted too, so parallel
// calls can never slip past it between a check and a count. Session users and the operator are
// unlimited (spec); the Unlimited tier has no quota; Free keys never get here (starter+).
import type { z } from 'zod';
import type { RedisStore } from '../../sql/stores/redis.js';
import { TIERS, type Tier } from '../../schemas/tiers.js';
import type { RecognitionQuota } from '../../schemas/recognition.js';
import type { Principal } from '../auth/principal.js';
import type { User } from '../auth/accounts.js';
import { RateLimited } from '../../schemas/errors.js';
import { midnightUtc } from '../auth/rateLimit.js';

export type QuotaDeps = { redis: RedisStore; redisPrefix: string };

const dayOf = (now: number) => new Date(now).toISOString().slice(0, 10);
const counterKey = (deps: QuotaDeps, userId: number, now: number) => `${deps.redisPrefix}:recognitions:${userId}:${dayOf(now)}`;

/** An API key's quota by its tier: null for the Unlimited tier, 0 for Free (recognition needs Starter). */
export function keyRecognitionsPerDay(tier: Tier): number | null {
  return TIERS[tier].recognitionPerDay ?? (tier === 'free' ? 0 : null);
}

/** The account's quota, or null when it has none (session callers, the operator, the Unlimited tier). */
export function recognitionsPerDay(principal: Principal): number | null {
  return principal.kind === 'key' ? keyRecognitionsPerDay(principal.tier) : null;
}

/** Counts one recognition of the caller; 429 with Retry-After past the quota. */
export async function countRecognition(deps: QuotaDeps, principal: Principal, now = Date.now()): Promise<void> {
  if (principal.kind !== 'key') return;
  await countAgainstQuota(deps, principal.user.id, recognitionsPerDay(principal), now);
}

/** Counts one recognition of an account with `perDay` (null: unlimited); 429 with Retry-After (seconds to midnight UTC) past it. */
export async function countAgainstQuota(deps: QuotaDeps, userId: number, perDay: number | null, now = Date.now()): Promise<void> {
  if (perDay === null) return;
  const used = await deps.redis.incr(counterKey(deps, userId, now), 2 * 86_400);
  if (used > perDay) {
    const retryAfter = Math.max(1, Math.ceil((midnightUtc(now) - now) / 1000));
    throw new RateLimited(`Recognition quota of ${perDay} a day reached. Retry after ${retryAfter} seconds.`, retryAfter);
  }
}

/**
 * Today's use, for /api/developer/info, as it applies to the credential asking: a session (or the
 * operator) is unlimited; a key has its tier's quota, and a Free key none at all (0: recognition
 * needs Starter).
 */
export async function recognitionQuota(
  deps: QuotaDeps,
  principal: Principal,
  user: User,
  now = Date.now(),
): Promise<z.input<typeof RecognitionQuota>> {
  // A key's quota is its own tier's (keys may be issued below the account's tier), as enforced.
  const perDay = principal.kind === 'key' ? keyRecognitionsPerDay(principal.tier) : null;
  const used = Number((await deps.redis.get(counterKey(deps, user.id, now)).catch(() => null)) ?? 0);
  return {
    per_day: perDay,
    used_today: used,
    remaining: perDay === null ? null : Math.max(0, perDay - used),
    resets_at: new Date(midnightUtc(now)).toISOString(),
  };
}
