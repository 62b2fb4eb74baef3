// Trend predictions (spec: "Market intelligence"): cards whose least-squares line over the last
// 30 days points furthest up, computed in ClickHouse. trendsPresenter.ts shapes what these return.
import type { z } from 'zod';
import { trendingCards } from '../../sql/market.js';
import { confidenceOf } from '../legacy/cardPriceAnalytics.js';
import type { RisingQuery, TrendingQuery } from '../../schemas/market.js';
import { labelsOf, type CardLabel } from './cardLabels.js';
import type { MarketDeps } from './movers.js';

/** A card's fitted line: price now and `ahead` days on, its slope (to 4 decimals), points and confidence. */
export type Trend = {
  card: CardLabel;
  current: number;
  predicted: number;
  predicted_change_pct: number;
  slope_per_day: number;
  points: number;
  confidence: 'low' | 'medium' | 'high';
};

async function trending(
  { db, analytics }: MarketDeps,
  q: { game: string; days: number; minPoints: number; ahead: number; direction: 1 | -1; limit: number },
): Promise<Trend[]> {
  const rows = await trendingCards(analytics, {
    game: q.game,
    days: q.days,
    min_points: q.minPoints,
    ahead: q.ahead,
    direction: q.direction,
    limit: q.limit,
  });
  const names = await labelsOf(
    db,
    rows.map((r) => Number(r.card_id)),
  );
  return rows.flatMap((r) => {
    const card = names.get(Number(r.card_id));
    if (!card) return [];
    const points = Number(r.points);
    return [
      {
        card,
        current: r.current,
        predicted: r.predicted,
        predicted_change_pct: r.predicted_change_pct,
        slope_per_day: Math.round(r.slope_per_day * 10000) / 10000,
        points,
        confidence: confidenceOf(points),
      },
    ];
  });
}

/** The cards predicted to rise most over `days_ahead` days (at least 10 daily prices in 30 days). */
export const trendingPredictionsOf = (deps: MarketDeps, query: z.output<typeof TrendingQuery>) =>
  trending(deps, { game: query.tcg_slug ?? '', days: 30, minPoints: 10, ahead: query.days_ahead, direction: 1, limit: query.limit });

/** The steadiest climbers of the last 30 days (at least 20 daily prices) whose slope shows as rising at 4 decimals. */
export const risingOf = async (deps: MarketDeps, query: z.output<typeof RisingQuery>) =>
  (await trending(deps, { game: query.tcg_slug ?? '', days: 30, minPoints: 20, ahead: 30, direction: 1, limit: query.limit })).filter(
    (t) => t.slope_per_day > 0,
  );
