// Cache-aside in one helper. Keys are namespaced and carry the prices epoch, which ingestion
// bumps (and announces on Redis) whenever new prices land: every price-dependent entry is then
// missed at once, on every API instance, without scanning or deleting keys.
import type { RedisStore } from '../sql/stores/redis.js';
import { HotResponses } from './http/hotResponses.js';
import { pricesEpochKey, pricesLandedChannel } from '../sql/stores/priceChannels.js';

export type Cache = {
  /** Returns the cached JSON text, or computes, stores and returns it. */
  json(key: string, ttlSeconds: number, load: () => Promise<unknown>): Promise<string>;
  /** The current prices epoch, kept in memory and refreshed by the landed channel. */
  epoch(): string;
  /** Calls `listener` with each new prices epoch this process learns of. */
  onEpoch(listener: (epoch: string) => void): void;
  /** Whole answers of hot routes in this process, ended by a new epoch (see hotResponses.ts). */
  hot: HotResponses;
  close(): Promise<void>;
};

export async function createCache(redis: RedisStore, prefix: string): Promise<Cache> {
  let epoch = (await redis.get(pricesEpochKey(prefix)).catch(() => null)) ?? '0';
  const listeners: ((epoch: string) => void)[] = [];
  const unsubscribe = await redis.subscribe(pricesLandedChannel(prefix), (message) => {
    epoch = message;
    for (const listener of listeners) listener(message);
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
    onEpoch: (listener) => listeners.push(listener),
    hot: new HotResponses(() => epoch),
    close: unsubscribe,
  };
}
