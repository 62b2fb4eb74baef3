// The Redis names ingestion (the writer) and the API instances (the readers) share: the prices
// epoch, which every price-dependent cache key carries, its "landed" announcement, and the
// channel of per-card price updates the WebSocket stream relays.
import type { RedisStore } from './redis.js';

export const pricesEpochKey = (prefix: string) => `${prefix}:prices:epoch`;
export const pricesLandedChannel = (prefix: string) => `${prefix}:prices:landed`;
export const priceUpdatesChannel = (prefix: string) => `${prefix}:prices:updates`;

/** Called by ingestion after new prices are committed: a new epoch, announced to every API instance. */
export async function announcePricesLanded(redis: RedisStore, prefix: string, epoch: string = Date.now().toString(36)): Promise<string> {
  await redis.set(pricesEpochKey(prefix), epoch);
  await redis.publish(pricesLandedChannel(prefix), epoch);
  return epoch;
}
