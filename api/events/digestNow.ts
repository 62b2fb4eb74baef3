// POST /alerts/digest-now: the caller's digest at once, capped per account.
import type { RedisStore } from '../../sql/stores/redis.js';

/** digest-now sends an e-mail each time, and session users have no rate limit: this caps it per account. */
export const DIGEST_NOW_PER_HOUR = 5;

/** Counts one digest-now of the account; past the cap, the seconds until the window ends (else null). */
export async function digestNowRefusal(redis: RedisStore, prefix: string, userId: number): Promise<number | null> {
  const key = `${prefix}:digest-now:${userId}`;
  if ((await redis.incr(key, 3600)) <= DIGEST_NOW_PER_HOUR) return null;
  return Math.max(1, await redis.ttl(key));
}
