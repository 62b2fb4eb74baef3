// What a collection is worth (spec: "Collection summary"): totals from the latest prices in
// PostgreSQL, summed there per variant (a row per variant, not per entry), and the 24 h and 7 d
// changes from each variant's price a day and a week before its newest price day (ClickHouse: one
// query for the variants not read since prices last landed, variantHistory.ts). The top card is
// the card whose entries together are worth most. Cached per user until the collection changes
// or new prices land.
import type { z } from 'zod';
import type { Db } from '../../sql/stores/db.js';
import type { RedisStore } from '../../sql/stores/redis.js';
import type { Cache } from '../cache.js';
import type { CollectionSummary } from '../../schemas/collection.js';
import * as q from '../../sql/collection.js';
import { CONDITION_FACTORS_JSON, collectionVersionKey } from './entries.js';
import type { VariantPriceHistory } from './variantHistory.js';
import { round2 } from '../legacy/cardPriceAnalytics.js';

type Summary = z.infer<typeof CollectionSummary>;
const SUMMARY_TTL_SECONDS = 600;

export type CollectionDeps = { db: Db; history: VariantPriceHistory; cache: Cache; redis: RedisStore; redisPrefix: string };

export async function collectionSummary(deps: CollectionDeps, userId: number): Promise<string> {
  const version = (await deps.redis.get(collectionVersionKey(deps.redisPrefix, userId)).catch(() => null)) ?? '0';
  return deps.cache.json(`collection-summary:${userId}:${version}`, SUMMARY_TTL_SECONDS, () => computeSummary(deps, userId));
}

export async function computeSummary(deps: Pick<CollectionDeps, 'db' | 'history'>, userId: number): Promise<Summary> {
  const variants = await q.collectionByVariant(deps.db, userId, CONDITION_FACTORS_JSON);
  const moving = variants.filter((v) => v.ungraded_weight > 0 && v.raw_price !== null);
  const then = await deps.history.pricesBefore(moving.map((v) => v.variant_id));

  let total = 0;
  let cards = 0;
  let change24h = 0;
  let change7d = 0;
  const byTcg: Record<string, number> = {};
  const byCard = new Map<number, { card_id: number; name: string; value: number }>();
  for (const v of variants) {
    cards += v.cards;
    total += v.value;
    if (v.value > 0) byTcg[v.tcg_slug] = (byTcg[v.tcg_slug] ?? 0) + v.value;
    const card = byCard.get(v.card_id) ?? { card_id: v.card_id, name: v.card_name, value: 0 };
    card.value += v.value;
    byCard.set(v.card_id, card);
    const past = v.raw_price !== null ? then.get(v.variant_id) : undefined;
    if (!past) continue;
    if (past.day_ago !== null) change24h += (v.raw_price! - past.day_ago) * v.ungraded_weight;
    if (past.week_ago !== null) change7d += (v.raw_price! - past.week_ago) * v.ungraded_weight;
  }
  let top: Summary['top_card'] = null;
  for (const card of byCard.values()) if (card.value > 0 && (!top || card.value > top.value)) top = card;
  const pct = (change: number) => (total - change > 0 ? Math.round((change / (total - change)) * 10_000) / 100 : null);
  return {
    total_value: round2(total),
    card_count: cards,
    change_24h: round2(change24h),
    change_24h_pct: pct(change24h),
    change_7d: round2(change7d),
    change_7d_pct: pct(change7d),
    by_tcg: Object.fromEntries(Object.entries(byTcg).map(([slug, v]) => [slug, round2(v)])),
    top_card: top ? { ...top, value: round2(top.value) } : null,
    currency: 'USD',
  };
}
