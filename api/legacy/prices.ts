// The legacy prices service (spec: "Legacy prices and history"): one card's current prices, its
// history and every analysis over it, one function a route. Current prices come from PostgreSQL;
// history and every aggregate over it from ClickHouse (or its answers precomputed when prices
// land). The documented formulas (deltas and anomalies, tiers, the verdict, the stash score, the
// prediction's fit) are applied here; pricesPresenter.ts shapes what these return.
import type { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { auctionSoldSummary, guideTiers, mainSource, priceHistory, priceHistoryMulti, priceSnapshots } from '../../sql/legacyPrices.js';
import { priceRowsOfCards } from './catalogueReads.js';
import {
  auctionSales,
  auctionSalesCountsOf,
  confidenceOf,
  daysAgo,
  isAnomaly,
  pctChange,
  RAW,
  rarityScore,
  resolveScope,
  round2,
  seriesStats,
  sourceMedians,
  trendOf,
  velocityOf,
  type CardScope,
  type Grading,
} from './cardPriceAnalytics.js';
import { marketVerdict } from '../../ingest/normalise/marketVerdict.js';
import {
  MULTI_MIN_POINTS,
  type AggregatesQuery,
  type EbaySoldQuery,
  type PredictQuery,
  type PriceHistoryQuery,
  type RecentSalesQuery,
  type SnapshotsQuery,
} from '../../schemas/legacyPrices.js';
import { DomainError, NotFound } from '../../schemas/errors.js';

/** What the legacy prices read: PostgreSQL, ClickHouse and the precomputed answers. */
export type LegacyPricesDeps = Pick<AppDeps, 'db' | 'analytics' | 'precomputed'>;

async function scopeOf({ db }: LegacyPricesDeps, cardId: number, variant?: string, language?: string): Promise<CardScope> {
  const scope = await resolveScope(db, cardId, variant, language);
  if (!scope) throw new NotFound('card');
  return scope;
}

function gradingOf(q: { grading_company?: string; grade?: string }): Grading {
  const company = q.grading_company ?? 'raw';
  if (company === 'raw') return RAW;
  // A graded series is one company's one grade: without the grade there is no such series.
  if (!q.grade) throw new DomainError('not_found', `no such series: ${company} needs a grade`);
  return { grading_company: company, grade: q.grade };
}

/** The card's latest price rows, per source and variant. */
export async function currentPrices(deps: LegacyPricesDeps, cardId: number) {
  await scopeOf(deps, cardId);
  const rows = (await priceRowsOfCards(deps.db, [cardId])).get(cardId) ?? [];
  return { card_id: cardId, rows };
}

/** The daily series of the window and its changes, volatility and trend over the last 365 days. */
export async function priceHistoryOf(deps: LegacyPricesDeps, cardId: number, query: z.output<typeof PriceHistoryQuery>) {
  const scope = await scopeOf(deps, cardId, query.variant);
  const [snapshots, stats] = await deps.precomputed.answer(
    cardId,
    (answers) =>
      Promise.all([
        priceHistory(answers, {
          card_id: scope.card.id,
          variant_ids: scope.selected,
          since: daysAgo(query.days - 1),
          source: query.source ?? '',
          ...RAW,
        }),
        seriesStats(answers, scope, RAW, daysAgo(364), query.source ?? ''),
      ]),
    ['legacy_price_history'],
  );
  const analysis = {
    change_7d: pctChange(stats.current, stats.before[7]),
    change_30d: pctChange(stats.current, stats.before[30]),
    change_90d: pctChange(stats.current, stats.before[90]),
    volatility: stats.volatility === null ? null : round2(stats.volatility * 100),
    trend: trendOf(stats),
  };
  return { scope, snapshots, analysis };
}

/** Every series of the card (variant × grading) of at least MULTI_MIN_POINTS days in the last year. */
export async function priceHistoryMultiOf(deps: LegacyPricesDeps, cardId: number) {
  const scope = await scopeOf(deps, cardId);
  const rows = scope.variants.length
    ? await priceHistoryMulti(deps.analytics, {
        card_id: scope.card.id,
        variant_ids: scope.variants.map((v) => v.id),
        since: daysAgo(364),
        min_points: MULTI_MIN_POINTS,
      })
    : [];
  return { scope, rows };
}

/** One source's daily values of the window (the card's main source unless one is named). */
export async function priceSnapshotsOf(deps: LegacyPricesDeps, cardId: number, query: z.output<typeof SnapshotsQuery>) {
  const scope = await scopeOf(deps, cardId, query.variant);
  const since = daysAgo(query.days - 1);
  const base = { card_id: scope.card.id, variant_ids: scope.selected, since };
  const { source, rows } = await deps.precomputed.answer(
    cardId,
    async (answers) => {
      const source = query.source ?? (await mainSource(answers, base))[0]?.source ?? null;
      return { source, rows: source ? await priceSnapshots(answers, { ...base, source }) : [] };
    },
    ['legacy_main_source', 'legacy_price_snapshots'],
  );
  return { scope, source, rows };
}

/** Completed auction sales of the window: a row a day and a summary per company and grade. */
export async function auctionSoldOf(deps: LegacyPricesDeps, cardId: number, query: z.output<typeof EbaySoldQuery>) {
  const scope = await scopeOf(deps, cardId);
  const allVariants = scope.variants.map((v) => v.id);
  const rows = allVariants.length
    ? await auctionSoldSummary(deps.analytics, {
        card_id: scope.card.id,
        variant_ids: allVariants,
        since: daysAgo(query.days - 1),
        grading_company: query.grading_company ?? '',
        grade: query.grade ?? '',
      })
    : [];
  return { scope, rows };
}

type DeltaDays = 1 | 7 | 30 | 90 | 365;

/** Current price, deltas with anomaly flags, all-time high, verdict, guide tiers and velocity (the route's description). */
export async function priceAggregatesOf(deps: LegacyPricesDeps, cardId: number, query: z.output<typeof AggregatesQuery>) {
  const grading = gradingOf(query);
  const scope = await scopeOf(deps, cardId, query.variant);
  const [[stats, sources, sales], tiers] = await Promise.all([
    deps.precomputed.answer(cardId, (answers) =>
      Promise.all([
        seriesStats(answers, scope, grading, daysAgo(3650)),
        sourceMedians(answers, scope, grading, 30),
        auctionSalesCountsOf(answers, scope, grading),
      ]),
    ),
    guideTiers(deps.db, scope.selected),
  ]);
  const delta = (n: DeltaDays) => {
    const then = stats.before[n];
    if (stats.current === null || then === null) return { abs: null, pct: null, anomaly: false };
    return {
      abs: round2(stats.current - then),
      pct: pctChange(stats.current, then),
      anomaly: isAnomaly(stats, stats.current, then, n),
    };
  };
  const tier = (price: number | null) => ({ price, spread_pct: pctChange(price, stats.current) });
  const t = tiers[0] ?? { loose: null, cib: null, new: null };
  return {
    scope,
    grading,
    stats,
    deltas: { d1: delta(1), d7: delta(7), d30: delta(30), d90: delta(90), d365: delta(365) },
    verdict: marketVerdict(sources),
    tiers: { loose: tier(t.loose), cib: tier(t.cib), new: tier(t.new) },
    sales,
    velocity: velocityOf(sales.d30),
  };
}

/** Completed auction sales of the window, newest first, and their mean USD price. */
export async function recentSalesOf(deps: LegacyPricesDeps, cardId: number, query: z.output<typeof RecentSalesQuery>) {
  const scope = await scopeOf(deps, cardId, query.variant, query.language);
  // Without a variant filter: every variant printed in the language.
  const ids = query.variant ? scope.selected : scope.variants.filter((v) => v.language === query.language).map((v) => v.id);
  const sales = ids.length ? await auctionSales(deps.analytics, { ...scope, selected: ids }, daysAgo(query.window_days - 1), {}, 500) : [];
  const averageUsd = sales.length ? round2(sales.reduce((n, s) => n + s.price_usd, 0) / sales.length) : null;
  return { scope, sales, averageUsd };
}

const clamp = (x: number) => Math.max(0, Math.min(100, Math.round(x)));

/** The 0–100 collectability score, its components and its label (the route's description). */
export async function stashScoreOf(deps: LegacyPricesDeps, cardId: number) {
  const scope = await scopeOf(deps, cardId);
  const [stats, sources, sales] = await deps.precomputed.answer(cardId, (answers) =>
    Promise.all([
      seriesStats(answers, scope, RAW, daysAgo(364)),
      sourceMedians(answers, scope, RAW, 30),
      auctionSalesCountsOf(answers, scope, {}),
    ]),
  );
  const verdict = marketVerdict(sources);
  const components = {
    price_momentum: clamp(50 + (pctChange(stats.current, stats.before[30]) ?? 0)),
    rarity: rarityScore(scope.card.rarity),
    liquidity: clamp(sales.d30 * 3 + sources.length * 10),
    source_agreement: clamp((verdict?.sources.filter((s) => s.agrees).reduce((n, s) => n + s.weight, 0) ?? 0) * 100),
  };
  const score = clamp(
    0.35 * components.price_momentum + 0.2 * components.rarity + 0.25 * components.liquidity + 0.2 * components.source_agreement,
  );
  const label =
    score >= 75 ? ('strong' as const) : score >= 50 ? ('solid' as const) : score >= 25 ? ('speculative' as const) : ('weak' as const);
  return { scope, score, components, label };
}

/** The price `days_ahead` days on from a least-squares line through the last 90 days, and the points up to it. */
export async function predictionOf(deps: LegacyPricesDeps, cardId: number, query: z.output<typeof PredictQuery>) {
  const scope = await scopeOf(deps, cardId);
  const stats = await deps.precomputed.answer(cardId, (answers) => seriesStats(answers, scope, RAW, daysAgo(89)));
  const fitted = stats.slope_per_day !== null && stats.intercept !== null && stats.last_day_number !== null && stats.last_day !== null;
  const at = (ahead: number) => Math.max(0.01, round2(stats.intercept! + stats.slope_per_day! * (stats.last_day_number! + ahead)));
  // Daily up to 31 days ahead, weekly beyond, always ending on the target day.
  const steps =
    query.days_ahead <= 31
      ? Array.from({ length: query.days_ahead }, (_, i) => i + 1)
      : [
          ...Array.from({ length: Math.floor(query.days_ahead / 7) }, (_, i) => (i + 1) * 7).filter((d) => d < query.days_ahead),
          query.days_ahead,
        ];
  const lastDay = stats.last_day ? Date.parse(`${stats.last_day}T00:00:00Z`) : 0;
  const predicted = fitted ? at(query.days_ahead) : null;
  return {
    scope,
    stats,
    predicted,
    change_pct: pctChange(predicted, stats.current),
    confidence: confidenceOf(stats.points),
    trend: trendOf(stats),
    future_points: fitted ? steps.map((d) => ({ date: new Date(lastDay + d * 86_400_000).toISOString().slice(0, 10), price: at(d) })) : [],
  };
}
