// What a collection is worth (spec: "Collection summary"): totals from the latest prices in
// PostgreSQL (holdings.ts), and the 24 h and 7 d changes from each variant's price a day and a
// week before its newest price day (ClickHouse's daily prices, kept per variant:
// variantHistory.ts). The top card is the card whose entries together are worth most. Cached per
// user until the collection changes or new prices land.
import type { z } from 'zod';
import type { Db } from '../../sql/stores/db.js';
import type { RedisStore } from '../../sql/stores/redis.js';
import type { Cache } from '../cache.js';
import type { CollectionSummary } from '../../schemas/collection.js';
import { collectionVersionKey } from './entries.js';
import { pricesBefore, type VariantDailyLows } from './variantHistory.js';
import { cardCount, holdingsOf, namesOf, sharesBy, totalValue, ungradedWeights } from './holdings.js';
import { pctChange, round2 } from '../legacy/cardPriceAnalytics.js';

type Summary = z.infer<typeof CollectionSummary>;
const SUMMARY_TTL_SECONDS = 600;

export type CollectionDeps = { db: Db; market: VariantDailyLows; cache: Cache; redis: RedisStore; redisPrefix: string };

/** The user's collection version: part of every cache key of their figures, bumped by each change. */
export const collectionVersion = async (deps: Pick<CollectionDeps, 'redis' | 'redisPrefix'>, userId: number) =>
  (await deps.redis.get(collectionVersionKey(deps.redisPrefix, userId)).catch(() => null)) ?? '0';

// Cached here, not by the route's declared policy (api/http/cachePolicy.ts): the answer is the
// caller's own and changes with their collection version, and a route's cache keys by the parsed
// request alone, handing a cached handler no caller; its TTL is no maxAge either, as the route
// sends no-store (a private answer).
export async function collectionSummary(deps: CollectionDeps, userId: number): Promise<string> {
  const version = await collectionVersion(deps, userId);
  return deps.cache.json(`collection-summary:${userId}:${version}`, SUMMARY_TTL_SECONDS, () => computeSummary(deps, userId));
}

/** Percent a change is of the value before it; null when there was none. */
export const changePct = (change: number, now: number) => (now - change > 0 ? pctChange(now, now - change) : null);

export async function computeSummary(deps: Pick<CollectionDeps, 'db' | 'market'>, userId: number): Promise<Summary> {
  const holdings = await holdingsOf(deps.db, userId);
  const weights = ungradedWeights(holdings);
  const series = await deps.market.of([...weights.keys()]);

  let change24h = 0;
  let change7d = 0;
  for (const [variantId, v] of weights) {
    const past = pricesBefore(series.get(variantId)!);
    if (past.day_ago !== null) change24h += (v.price - past.day_ago) * v.weight;
    if (past.week_ago !== null) change7d += (v.price - past.week_ago) * v.weight;
  }
  // Games and cards worth something (a card without a price is in no game's total, and never on top).
  const byGame = [...sharesBy(holdings, (h) => h.game_id)].filter(([, share]) => share.value > 0);
  let top: { card_id: number; value: number } | null = null;
  for (const [cardId, { value }] of sharesBy(holdings, (h) => h.card_id))
    if (value > 0 && (!top || value > top.value)) top = { card_id: cardId, value };
  const names = await namesOf(deps.db, { cards: top ? [top.card_id] : [], sets: [], games: byGame.map(([gameId]) => gameId) });
  const total = totalValue(holdings);
  return {
    total_value: round2(total),
    card_count: cardCount(holdings),
    change_24h: round2(change24h),
    change_24h_pct: changePct(change24h, total),
    change_7d: round2(change7d),
    change_7d_pct: changePct(change7d, total),
    by_tcg: Object.fromEntries(byGame.map(([gameId, share]) => [names.game.get(gameId)!, round2(share.value)])),
    top_card: top ? { card_id: top.card_id, name: names.card.get(top.card_id)!, value: round2(top.value) } : null,
    currency: 'USD',
  };
}
