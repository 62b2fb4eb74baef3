// POST /alerts/digest-now: the caller's digest at once, capped per account.
import type { AppDeps } from '../deps.js';
import type { RedisStore } from '../../sql/stores/redis.js';
import { queueDigests } from '../../ingest/events/digest.js';
import { startEmailOutbox } from '../../workflows/operations.js';
import { RateLimited } from '../../schemas/errors.js';

/** digest-now sends an e-mail each time, and session users have no rate limit: this caps it per account. */
export const DIGEST_NOW_PER_HOUR = 5;

/** Counts one digest-now of the account; past the cap, the seconds until the window ends (else null). */
export async function digestNowRefusal(redis: RedisStore, prefix: string, userId: number): Promise<number | null> {
  const key = `${prefix}:digest-now:${userId}`;
  if ((await redis.incr(key, 3600)) <= DIGEST_NOW_PER_HOUR) return null;
  return Math.max(1, await redis.ttl(key));
}

/** Queues the account's digest now (429 past the cap) and starts the e-mail outbox; how many were queued. */
export async function digestNow(deps: Pick<AppDeps, 'stores' | 'config' | 'ingest' | 'log'>, userId: number): Promise<number> {
  const retryAfter = await digestNowRefusal(deps.stores.redis, deps.config.redisPrefix, userId);
  if (retryAfter !== null) throw new RateLimited(`Rate limit exceeded. Retry after ${retryAfter} seconds.`, retryAfter);
  const queued = await queueDigests(deps.stores.pg.pool, userId);
  // The worker sends the outbox over SMTP when configured; without Temporal it waits for the next run.
  void deps.ingest
    .client()
    .then((client) => startEmailOutbox(client, `digest-now-${userId}-${Date.now()}`))
    .catch((err: Error) =>
      deps.log.warn('digest-now: could not start the e-mail outbox run; the next run sends it', { cause: err.message }),
    );
  return queued;
}
