// Shapes what the legacy prices service (prices.ts) returns into the routes' responses
// (schemas/legacyPrices.ts): ClickHouse's decimals as numbers, variant ids as names, prices rounded.
import type { z } from 'zod';
import type {
  auctionSoldOf,
  currentPrices,
  priceAggregatesOf,
  priceHistoryMultiOf,
  priceHistoryOf,
  predictionOf,
  priceSnapshotsOf,
  recentSalesOf,
  stashScoreOf,
} from './prices.js';
import { round2, type CardScope } from './cardPriceAnalytics.js';
import {
  MULTI_MIN_POINTS,
  type CardPrices,
  type EbaySold,
  type EbaySoldQuery,
  type Prediction,
  type PriceAggregates,
  type PriceHistory,
  type PriceHistoryMulti,
  type PriceSnapshots,
  type RecentSales,
  type RecentSalesQuery,
  type SnapshotsQuery,
  type StashScore,
} from '../../schemas/legacyPrices.js';

type Out<S extends z.ZodType> = z.input<S>;
type Of<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

const variantNames = (scope: CardScope) => new Map(scope.variants.map((v) => [v.id, v.name]));

export function presentCurrentPrices({ card_id, rows }: Of<typeof currentPrices>): Out<typeof CardPrices> {
  return {
    card_id,
    sources: rows.map((r) => ({
      source: r.source,
      market_price: r.market_price,
      low_price: r.low_price,
      high_price: r.high_price,
      currency: r.currency,
      variant: r.variant,
      recorded_at: r.recorded_at,
    })),
  };
}

export function presentPriceHistory({ scope, snapshots, analysis }: Of<typeof priceHistoryOf>): Out<typeof PriceHistory> {
  return {
    card_id: scope.card.id,
    variant: scope.variantLabel,
    currency: 'USD' as const,
    snapshots: snapshots.map((s) => ({ ...s, market_price: Number(s.market_price) })),
    analysis,
  };
}

export function presentPriceHistoryMulti({ scope, rows }: Of<typeof priceHistoryMultiOf>): Out<typeof PriceHistoryMulti> {
  const names = variantNames(scope);
  const series = rows.map((r) => {
    const variant = names.get(Number(r.variant_id)) ?? String(r.variant_id);
    const grading = r.grading_company === 'raw' ? 'ungraded' : `${r.grading_company.toUpperCase()} ${r.grade}`;
    return {
      key: `${variant}|${r.grading_company}|${r.grade}`,
      label: `${variant}, ${grading}`,
      variant,
      grading_company: r.grading_company,
      grade: r.grade,
      currency: 'USD' as const,
      total_points: Number(r.total_points),
      points: r.points.map(([date, price]) => ({ date, price: Number(price) })),
    };
  });
  return { card_id: scope.card.id, series, total_series: series.length, min_points: MULTI_MIN_POINTS };
}

export function presentPriceSnapshots(
  { scope, source, rows }: Of<typeof priceSnapshotsOf>,
  query: z.output<typeof SnapshotsQuery>,
): Out<typeof PriceSnapshots> {
  const names = variantNames(scope);
  const points = rows.map(({ variant_id, ...r }) => ({
    ...r,
    variant: names.get(Number(variant_id)) ?? '',
    market_price: Number(r.market_price),
  }));
  return { card_id: scope.card.id, source, variant: scope.variantLabel, days: query.days, points, count: points.length };
}

export function presentAuctionSold({ scope, rows }: Of<typeof auctionSoldOf>, query: z.output<typeof EbaySoldQuery>): Out<typeof EbaySold> {
  const sales = rows
    .filter((r) => r.kind === 'day')
    .map((r) => ({
      date: r.date,
      grading_company: r.grading_company,
      grade: r.grade,
      average_price: Number(r.average_price),
      count: Number(r.count),
    }));
  const summary = rows
    .filter((r) => r.kind === 'summary')
    .map((r) => ({
      grading_company: r.grading_company,
      grade: r.grade,
      average_price: Number(r.average_price),
      median_price: Number(r.median_price),
      min_price: Number(r.min_price),
      max_price: Number(r.max_price),
      count: Number(r.count),
    }));
  return {
    card_id: scope.card.id,
    days: query.days,
    grading_company: query.grading_company ?? null,
    grade: query.grade ?? null,
    sales,
    summary,
    total_sales_points: sales.length,
    total_grades: summary.length,
  };
}

export function presentPriceAggregates(a: Of<typeof priceAggregatesOf>): Out<typeof PriceAggregates> {
  const { stats } = a;
  return {
    card_id: a.scope.card.id,
    scope: { variant: a.scope.variantLabel, ...a.grading },
    current: {
      price: stats.current === null ? null : round2(stats.current),
      currency: 'USD' as const,
      recorded_at: stats.last_day ? `${stats.last_day}T00:00:00Z` : null,
    },
    deltas: a.deltas,
    all_time_high: { price: stats.ath ? round2(stats.ath.price) : null, date: stats.ath?.date ?? null },
    sales_volume_30d: a.sales.d365 > 0 ? a.sales.d30 : null,
    point_count: stats.points,
    market_verdict: a.verdict,
    buy_sell_spread: { currency: 'USD' as const, tiers: a.tiers },
    velocity: a.velocity,
  };
}

export function presentRecentSales(
  { scope, sales, averageUsd }: Of<typeof recentSalesOf>,
  query: z.output<typeof RecentSalesQuery>,
): Out<typeof RecentSales> {
  const names = variantNames(scope);
  const rows = sales.map((s) => ({
    date: s.date,
    variant: names.get(s.variant_id) ?? '',
    grading_company: s.grading_company,
    grade: s.grade,
    price: s.price,
    currency: s.currency,
    price_usd: s.price_usd,
    listing_id: s.observation_id,
  }));
  return {
    card_id: scope.card.id,
    window_days: query.window_days,
    language: query.language,
    variant: query.variant ?? 'all',
    sales: rows,
    count: rows.length,
    average_price_usd: averageUsd,
  };
}

export function presentStashScore({ scope, score, components, label }: Of<typeof stashScoreOf>): Out<typeof StashScore> {
  return { card_id: scope.card.id, score, components, label };
}

export function presentPrediction(p: Of<typeof predictionOf>): Out<typeof Prediction> {
  const { stats } = p;
  return {
    card_id: p.scope.card.id,
    card_name: p.scope.card.name,
    current_price: stats.current === null ? null : round2(stats.current),
    predicted_price: p.predicted,
    predicted_change_pct: p.change_pct,
    confidence: p.confidence,
    data_points: stats.points,
    trend: p.trend,
    slope_per_day: stats.slope_per_day === null ? null : Math.round(stats.slope_per_day * 10000) / 10000,
    future_points: p.future_points,
  };
}
