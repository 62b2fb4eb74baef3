// Shapes what the trends service (trends.ts) returns into the market routes' responses (schemas/market.ts).
import type { z } from 'zod';
import { round2 } from '../legacy/cardPriceAnalytics.js';
import type { RisingCards, TrendingPredictions, TrendingQuery } from '../../schemas/market.js';
import { presentCardLabel } from './cardLabels.js';
import type { Trend } from './trends.js';

const presentTrend = (t: Trend) => ({
  ...presentCardLabel(t.card),
  current_price: round2(t.current),
  predicted_price: round2(t.predicted),
  predicted_change_pct: round2(t.predicted_change_pct),
  slope_per_day: t.slope_per_day,
  data_points: t.points,
  confidence: t.confidence,
});

export const presentTrendingPredictions = (
  trends: Trend[],
  query: z.output<typeof TrendingQuery>,
): z.input<typeof TrendingPredictions> => ({
  days_ahead: query.days_ahead,
  items: trends.map(presentTrend),
});

export const presentRising = (trends: Trend[]): z.input<typeof RisingCards> => ({ items: trends.map(presentTrend) });
