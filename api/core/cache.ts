// Cache-aside in one helper. Keys are namespaced and carry the prices epoch, which ingestion
// bumps (and announces on Redis) whenever new prices land: every price-dependent entry is then
// missed at once, on every API instance, without scanning or deleting keys.
import type { RedisStore } from './stores/redis.js';

const epochKey = (prefix: string) => `${prefix}:prices:epoch`;
const landedChannel = (prefix: string) => `${prefix}:prices:landed`;

export type Cache = {
  /** Returns the cached JSON text, or computes, stores and returns it. */
  json(key: string, ttlSeconds: number, load: () => Promise<unknown>): Promise<string>;
  /** The current prices epoch, kept in memory and refreshed by the landed channel. */
  epoch(): string;
  close(): Promise<void>;
};

export async function createCache(redis: RedisStore, prefix: string): Promise<Cache> {
  let epoch = (await redis.get(epochKey(prefix)).catch(() => null)) ?? '0';
  const unsubscribe = await redis.subscribe(landedChannel(prefix), (message) => {
    epoch = message;
  });
  return {
    async json(key, ttl, load) {
      const full = `${prefix}:cache:${epoch}:${key}`;
      // A Redis outage degrades to uncached reads, never to errors.
      const hit = await redis.get(full).catch(() => null);
      if (hit !== null) return hit;
      const text = JSON.stringify(await load());
      await redis.set(full, text, ttl).catch(() => undefined);
      return text;
    },
    epoch: () => epoch,
    close: unsubscribe,
  };
}

/** Called by ingestion after new prices are committed: a new epoch, announced to every API instance. */
export async function announcePricesLanded(redis: RedisStore, prefix: string, epoch: string = Date.now().toString(36)): Promise<string> {
  await redis.set(epochKey(prefix), epoch);
  await redis.publish(landedChannel(prefix), epoch);
  return epoch;
}
