// Legacy prices, history and analytics of one card. Every aggregate over history is computed in
// ClickHouse (sql/clickhouse/queries/legacy_*.sql over holo.card_market_daily_usd); this module
// picks the variants, combines a handful of aggregates and applies the documented formulas.
import type { Analytics } from '../../sql/stores/analytics.js';
import type { Db } from '../../sql/stores/db.js';
import { DomainError } from '../../schemas/errors.js';
import { auctionSalesCounts, auctionSalesOf, cardVariants, priceAnalysis, sourceMedianPrices } from '../../sql/legacyPrices.js';
import { variantMatches, variantName } from './variants.js';
import type { SourceMedian } from '../../ingest/normalise/marketVerdict.js';

const DAY_MS = 86_400_000;
export const daysAgo = (n: number, today = new Date()) =>
  new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - n * DAY_MS).toISOString().slice(0, 10);

export type CardScope = {
  card: { id: number; name: string; rarity: string | null; game: string };
  variants: { id: number; name: string; language: string; finish: string; print_run: string }[];
  /** The variants the request is about: the filter's matches, or the reference variant. */
  selected: number[];
  variantLabel: string;
};

/** The card and the variants a request names; null when the card does not exist. */
export async function resolveScope(db: Db, cardId: number, variant?: string, language?: string): Promise<CardScope | null> {
  const rows = await cardVariants(db, cardId);
  const first = rows[0];
  if (!first) return null;
  // Variant columns are set whenever variant_id is (card_variants.sql).
  const all = rows.flatMap((r) =>
    r.variant_id === null ? [] : [{ id: r.variant_id, language: r.language!, finish: r.finish!, print_run: r.print_run! }],
  );
  const variants = all.map((v) => ({ ...v, name: variantName(v.finish, v.print_run) }));
  let selected: number[];
  let variantLabel: string;
  if (variant) {
    selected = all.filter((v) => variantMatches(variant, v.finish, v.print_run) && (!language || v.language === language)).map((v) => v.id);
    if (selected.length === 0)
      throw new DomainError('not_found', `card ${cardId} has no ${variant} variant${language ? ` in ${language}` : ''}`);
    variantLabel = variant;
  } else {
    const candidates = language ? variants.filter((v) => v.language === language) : variants;
    const reference = candidates.find((v) => v.id === first.reference_variant_id) ?? candidates[0];
    selected = reference ? [reference.id] : [];
    variantLabel = reference?.name ?? 'normal';
  }
  return { card: { id: first.card_id, name: first.name, rarity: first.rarity, game: first.game }, variants, selected, variantLabel };
}

export type Grading = { grading_company: string; grade: string };
export const RAW: Grading = { grading_company: 'raw', grade: '' };

export type SeriesStats = {
  points: number;
  last_day: string | null;
  current: number | null;
  before: Record<1 | 7 | 30 | 90 | 365, number | null>;
  ath: { price: number; date: string } | null;
  mean: number | null;
  volatility: number | null;
  drift: number | null;
  slope_per_day: number | null;
  intercept: number | null;
  last_day_number: number | null;
};

/** Statistics of a scope's cross-source daily USD series since a day (legacy_price_analysis.sql). */
export async function seriesStats(
  analytics: Analytics,
  scope: CardScope,
  grading: Grading,
  since: string,
  source = '',
): Promise<SeriesStats> {
  const [r] = await priceAnalysis(analytics, {
    card_id: scope.card.id,
    variant_ids: scope.selected,
    since,
    source,
    ...grading,
  });
  const n = Number(r?.points ?? 0);
  if (!r || n === 0)
    return {
      points: 0,
      last_day: null,
      current: null,
      before: { 1: null, 7: null, 30: null, 90: null, 365: null },
      ath: null,
      mean: null,
      volatility: null,
      drift: null,
      slope_per_day: null,
      intercept: null,
      last_day_number: null,
    };
  const at = (k: 1 | 7 | 30 | 90 | 365) => (Number(r[`n${k}`]) > 0 ? Number(r[`p${k}`]) : null);
  const num = (v: unknown) => (v === null || v === undefined || Number.isNaN(Number(v)) ? null : Number(v));
  return {
    points: n,
    last_day: String(r.last_day),
    current: Number(r.current),
    before: { 1: at(1), 7: at(7), 30: at(30), 90: at(90), 365: at(365) },
    ath: { price: Number(r.ath_price), date: String(r.ath_date) },
    mean: num(r.mean_price),
    volatility: num(r.volatility),
    drift: num(r.drift),
    slope_per_day: n >= 2 ? num(r.slope_per_day) : null,
    intercept: n >= 2 ? num(r.intercept) : null,
    last_day_number: num(r.last_day_number),
  };
}

export const round2 = (x: number) => Math.round(x * 100) / 100;
export const pctChange = (now: number | null, then: number | null) =>
  now === null || then === null || then === 0 ? null : round2(((now - then) / then) * 100);

/** up / down / stable: the fitted line's slope as a share of the mean price, beyond ±0.1 % a day. */
export function trendOf(s: Pick<SeriesStats, 'slope_per_day' | 'mean'>): 'up' | 'down' | 'stable' {
  if (s.slope_per_day === null || !s.mean) return 'stable';
  const perDay = s.slope_per_day / s.mean;
  return perDay > 0.001 ? 'up' : perDay < -0.001 ? 'down' : 'stable';
}

/** Confidence of a regression by its daily data points: low < 10, medium 10–19, high ≥ 20. */
export const confidenceOf = (points: number): 'low' | 'medium' | 'high' => (points < 10 ? 'low' : points < 20 ? 'medium' : 'high');

export async function sourceMedians(analytics: Analytics, scope: CardScope, grading: Grading, days: number): Promise<SourceMedian[]> {
  const rows = await sourceMedianPrices(analytics, {
    card_id: scope.card.id,
    variant_ids: scope.selected,
    since: daysAgo(days + 400),
    days,
    ...grading,
  });
  return rows.map((r) => ({ ...r, median: Number(r.median), sample_size: Number(r.sample_size) }));
}

export type AuctionSale = {
  date: string;
  variant_id: number;
  grading_company: string;
  grade: string;
  observation_id: string;
  currency: string;
  price: number;
  price_usd: number;
};

export async function auctionSales(
  analytics: Analytics,
  scope: CardScope,
  since: string,
  grading: Partial<Grading> = {},
  limit = 10_000,
): Promise<AuctionSale[]> {
  const rows = await auctionSalesOf(analytics, {
    card_id: scope.card.id,
    variant_ids: scope.selected,
    since,
    grading_company: grading.grading_company ?? '',
    grade: grading.grade ?? '',
    limit,
  });
  return rows.map((r) => ({ ...r, variant_id: Number(r.variant_id), price: Number(r.price), price_usd: Number(r.price_usd) }));
}

/** Auction sales of the scope in the last 30 and 365 days. */
export async function auctionSalesCountsOf(analytics: Analytics, scope: CardScope, grading: Partial<Grading>) {
  const [r] = await auctionSalesCounts(analytics, {
    card_id: scope.card.id,
    variant_ids: scope.selected,
    since30: daysAgo(29),
    since365: daysAgo(364),
    grading_company: grading.grading_company ?? '',
    grade: grading.grade ?? '',
  });
  return { d30: r?.sales_30d ?? 0, d365: r?.sales_365d ?? 0 };
}

/** Sales velocity from the auction sales of the last 30 days. */
export function velocityOf(sales30d: number): { label: string; sample_30d: number; tier: 'none' | 'low' | 'medium' | 'high' } {
  const tier = sales30d >= 30 ? 'high' : sales30d >= 10 ? 'medium' : sales30d >= 1 ? 'low' : 'none';
  const label = { high: 'sells daily', medium: 'sells weekly', low: 'sells rarely', none: 'no recent sales' }[tier];
  return { label, sample_30d: sales30d, tier };
}

// Rarity as a 0–100 collectability score: the scarcer the printing class, the higher.
export function rarityScore(rarity: string | null): number {
  const r = (rarity ?? '').toLowerCase();
  if (/secret|hyper|special illustration|gold|enchanted|fabled|mythic|legendary|marvel/.test(r)) return 100;
  if (/illustration|ultra|ex|gx|vmax|vstar|majestic|super rare/.test(r)) return 80;
  if (/holo|^rare$|rare/.test(r)) return 60;
  if (/uncommon/.test(r)) return 30;
  if (/common|basic|token/.test(r)) return 15;
  return 40;
}

/** Daily volatility below which a series counts as this volatile: quotes move by cents and rounding. */
export const MIN_DAILY_VOLATILITY = 0.01;

/**
 * Is an N-day move out of line with the series' own behaviour? Its log return differs from N days
 * of the mean daily drift by more than 3 σ·√N, σ being the standard deviation of daily log returns
 * (at least 1 %, so a very smooth series is not flagged for an ordinary move).
 */
export function isAnomaly(s: Pick<SeriesStats, 'volatility' | 'drift'>, now: number, then: number, days: number): boolean {
  if (s.volatility === null || s.drift === null || now <= 0 || then <= 0) return false;
  const sigma = Math.max(s.volatility, MIN_DAILY_VOLATILITY);
  return Math.abs(Math.log(now / then) - s.drift * days) > 3 * sigma * Math.sqrt(days);
}
