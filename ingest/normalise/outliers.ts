// Flags outliers with robust statistics against each series' recent history: a point is an
// outlier when it lies more than K scaled MADs from the series median *and* is at least 3x away
// from it (so flat series with a near-zero MAD do not flag ordinary moves). Series with fewer
// than MIN_HISTORY points are never flagged. Flagged rows are kept, marked, and excluded from reads.
import type { ClickHouseClient } from '@clickhouse/client';
import { recentSeriesStats } from '../../sql/priceLoads.js';
import { seriesKey, type PricePointRow } from '../pricePoint.js';

export const OUTLIER_RULE = { windowDays: 30, minHistory: 5, madK: 6, minRatio: 3 } as const;

export function isOutlier(amount: number, median: number, mad: number): boolean {
  if (median <= 0) return false;
  const ratio = amount / median;
  if (ratio < OUTLIER_RULE.minRatio && ratio > 1 / OUTLIER_RULE.minRatio) return false;
  const scaled = 1.4826 * mad;
  return scaled === 0 || Math.abs(amount - median) / scaled > OUTLIER_RULE.madK;
}

export type SeriesBaselines = Map<string, { med: number; mad: number }>;

/** The baseline (median and MAD over the window before the day) of every series of the points. */
export async function seriesBaselines(ch: ClickHouseClient, points: PricePointRow[], asOf: string): Promise<SeriesBaselines> {
  if (points.length === 0) return new Map();
  return recentSeriesStats(ch, {
    card_ids: [...new Set(points.map((p) => p.card_id))],
    sources: [...new Set(points.map((p) => p.source))],
    as_of: asOf,
    window_days: OUTLIER_RULE.windowDays,
    min_history: OUTLIER_RULE.minHistory,
  });
}

/** Flags the points that are outliers of their series' baseline; returns how many it flagged. */
export function flagOutliers(points: PricePointRow[], baselines: SeriesBaselines): number {
  let flagged = 0;
  for (const p of points) {
    const s = baselines.get(seriesKey(p));
    if (s && isOutlier(Number(p.amount), s.med, s.mad)) {
      p.is_outlier = true;
      flagged++;
    }
  }
  return flagged;
}
