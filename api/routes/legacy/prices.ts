// Legacy prices, history and analytics of one card (spec: "Legacy prices and history"), all free.
// Current prices come from PostgreSQL; history and every aggregate over it from ClickHouse.
import type { AppDeps } from '../../deps.js';
import { defineRoute } from '../../http/route.js';
import { auctionSoldSummary, guideTiers, mainSource, priceHistory, priceHistoryMulti, priceSnapshots } from '../../../sql/legacyPrices.js';
import { priceRowsOfCards } from '../../legacy/catalogueReads.js';
import {
  auctionSales,
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
  auctionSalesCountsOf,
  velocityOf,
  type CardScope,
  type Grading,
} from '../../legacy/cardPriceAnalytics.js';
import { marketVerdict } from '../../../ingest/normalise/marketVerdict.js';
import {
  AggregatesQuery,
  CardPriceParams,
  CardPrices,
  EbaySold,
  EbaySoldQuery,
  MULTI_MIN_POINTS,
  PredictQuery,
  Prediction,
  PriceAggregates,
  PriceHistory,
  PriceHistoryMulti,
  PriceHistoryQuery,
  PriceSnapshots,
  RecentSales,
  RecentSalesQuery,
  SnapshotsQuery,
  StashScore,
} from '../../../schemas/legacyPrices.js';
import { DomainError, NotFound } from '../../../schemas/errors.js';

const tags = ['legacy prices'];
const TTL = 120;
const MULTI_TTL = 600; // spec: multi-series price history is cached 10 minutes

export const legacyPriceRoutes = (deps: AppDeps) => {
  const { db, analytics, precomputed } = deps;
  const scopeOf = async (cardId: number, variant?: string, language?: string): Promise<CardScope> => {
    const scope = await resolveScope(db, cardId, variant, language);
    if (!scope) throw new NotFound('card');
    return scope;
  };
  const gradingOf = (q: { grading_company?: string; grade?: string }): Grading => {
    const company = q.grading_company ?? 'raw';
    if (company === 'raw') return RAW;
    // A graded series is one company's one grade: without the grade there is no such series.
    if (!q.grade) throw new DomainError('not_found', `no such series: ${company} needs a grade`);
    return { grading_company: company, grade: q.grade };
  };

  return [
    defineRoute({
      method: 'get',
      path: '/api/cards/{card_id}/prices',
      summary: 'Current price per source and variant (low, market, high)',
      tags,
      params: CardPriceParams,
      response: CardPrices,
      maxAge: TTL,
      cache: true,
      errors: [404, 503],
      handler: async ({ params }) => {
        await scopeOf(params.card_id);
        const rows = (await priceRowsOfCards(db, [params.card_id])).get(params.card_id) ?? [];
        return {
          card_id: params.card_id,
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
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/cards/{card_id}/price-history',
      summary: 'Daily market price per source (USD) with change, volatility and trend',
      description:
        'Snapshots cover `days`; the analysis always looks at the last 365 days, so every change is available whatever the window.',
      tags,
      params: CardPriceParams,
      query: PriceHistoryQuery,
      response: PriceHistory,
      maxAge: TTL,
      cache: true,
      errors: [404, 503],
      handler: async ({ params, query }) => {
        const scope = await scopeOf(params.card_id, query.variant);
        const [snapshots, stats] = await precomputed.answer(params.card_id, (answers) =>
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
        );
        return {
          card_id: scope.card.id,
          variant: scope.variantLabel,
          currency: 'USD' as const,
          snapshots: snapshots.map((s) => ({ ...s, market_price: Number(s.market_price) })),
          analysis: {
            change_7d: pctChange(stats.current, stats.before[7]),
            change_30d: pctChange(stats.current, stats.before[30]),
            change_90d: pctChange(stats.current, stats.before[90]),
            volatility: stats.volatility === null ? null : round2(stats.volatility * 100),
            trend: trendOf(stats),
          },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/cards/{card_id}/price-history-multi',
      summary: 'Every series of the card (variant × grading), daily medians in USD; series under 5 days left out; cached 10 minutes',
      tags,
      params: CardPriceParams,
      response: PriceHistoryMulti,
      maxAge: MULTI_TTL,
      cache: true,
      errors: [404, 503],
      handler: async ({ params }) => {
        const scope = await scopeOf(params.card_id);
        const names = new Map(scope.variants.map((v) => [v.id, v.name]));
        const rows = scope.variants.length
          ? await priceHistoryMulti(analytics, {
              card_id: scope.card.id,
              variant_ids: scope.variants.map((v) => v.id),
              since: daysAgo(364),
              min_points: MULTI_MIN_POINTS,
            })
          : [];
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
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/cards/{card_id}/price-history-snapshots',
      summary: "One source's daily values of the card, raw and graded, in the source's currency",
      tags,
      params: CardPriceParams,
      query: SnapshotsQuery,
      response: PriceSnapshots,
      maxAge: TTL,
      cache: true,
      errors: [404, 503],
      handler: async ({ params, query }) => {
        const scope = await scopeOf(params.card_id, query.variant);
        const since = daysAgo(query.days - 1);
        const base = { card_id: scope.card.id, variant_ids: scope.selected, since };
        const { source, rows } = await precomputed.answer(params.card_id, async (answers) => {
          const source = query.source ?? (await mainSource(answers, base))[0]?.source ?? null;
          return { source, rows: source ? await priceSnapshots(answers, { ...base, source }) : [] };
        });
        const names = new Map(scope.variants.map((v) => [v.id, v.name]));
        const points = rows.map(({ variant_id, ...r }) => ({
          ...r,
          variant: names.get(Number(variant_id)) ?? '',
          market_price: Number(r.market_price),
        }));
        return { card_id: scope.card.id, source, variant: scope.variantLabel, days: query.days, points, count: points.length };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/cards/{card_id}/ebay-sold',
      summary: 'Completed auction sales (USD): daily averages and a summary per company and grade',
      tags,
      params: CardPriceParams,
      query: EbaySoldQuery,
      response: EbaySold,
      maxAge: TTL,
      cache: true,
      errors: [404, 503],
      handler: async ({ params, query }) => {
        const scope = await scopeOf(params.card_id);
        const allVariants = scope.variants.map((v) => v.id);
        const rows = allVariants.length
          ? await auctionSoldSummary(analytics, {
              card_id: scope.card.id,
              variant_ids: allVariants,
              since: daysAgo(query.days - 1),
              grading_company: query.grading_company ?? '',
              grade: query.grade ?? '',
            })
          : [];
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
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/cards/{card_id}/price-aggregates',
      summary: 'Current price, deltas with anomaly flags, all-time high, multi-source market verdict, guide tiers and sales velocity',
      description:
        'Series: the median across sources of each day’s USD market price of the scope. A delta over N days is an anomaly when its log return differs from N days of the series’ mean daily log return by more than 3 σ·√N, σ being the standard deviation of daily log returns (at least 1 %). The verdict is the weighted median of the sources’ 30-day medians (weight ln(1 + daily values)); a source agrees within ±15 %; confidence is the agreeing share of the weight (high ≥ 0.75, medium ≥ 0.5). Tiers are the graded guide’s loose, cib (grade 7) and new (grade 8) prices. Velocity counts auction sales in 30 days: high ≥ 30, medium ≥ 10, low ≥ 1. A grading company other than raw needs a grade (404 without: no such series).',
      tags,
      params: CardPriceParams,
      query: AggregatesQuery,
      response: PriceAggregates,
      maxAge: TTL,
      cache: true,
      errors: [404, 503],
      handler: async ({ params, query }) => {
        const grading = gradingOf(query);
        const scope = await scopeOf(params.card_id, query.variant);
        const [[stats, sources, sales], tiers] = await Promise.all([
          precomputed.answer(params.card_id, (answers) =>
            Promise.all([
              seriesStats(answers, scope, grading, daysAgo(3650)),
              sourceMedians(answers, scope, grading, 30),
              auctionSalesCountsOf(answers, scope, grading),
            ]),
          ),
          guideTiers(db, scope.selected),
        ]);
        const delta = (n: 1 | 7 | 30 | 90 | 365) => {
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
          card_id: scope.card.id,
          scope: { variant: scope.variantLabel, ...grading },
          current: {
            price: stats.current === null ? null : round2(stats.current),
            currency: 'USD' as const,
            recorded_at: stats.last_day ? `${stats.last_day}T00:00:00Z` : null,
          },
          deltas: { d1: delta(1), d7: delta(7), d30: delta(30), d90: delta(90), d365: delta(365) },
          all_time_high: { price: stats.ath ? round2(stats.ath.price) : null, date: stats.ath?.date ?? null },
          sales_volume_30d: sales.d365 > 0 ? sales.d30 : null,
          point_count: stats.points,
          market_verdict: marketVerdict(sources),
          buy_sell_spread: { currency: 'USD' as const, tiers: { loose: tier(t.loose), cib: tier(t.cib), new: tier(t.new) } },
          velocity: velocityOf(sales.d30),
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/cards/{card_id}/recent-sales',
      summary: 'Completed auction sales of the card within a window, newest first',
      tags,
      params: CardPriceParams,
      query: RecentSalesQuery,
      response: RecentSales,
      maxAge: TTL,
      cache: true,
      errors: [404, 503],
      handler: async ({ params, query }) => {
        const scope = await scopeOf(params.card_id, query.variant, query.language);
        const names = new Map(scope.variants.map((v) => [v.id, v.name]));
        // Without a variant filter: every variant printed in the language.
        const ids = query.variant ? scope.selected : scope.variants.filter((v) => v.language === query.language).map((v) => v.id);
        const sales = ids.length ? await auctionSales(analytics, { ...scope, selected: ids }, daysAgo(query.window_days - 1), {}, 500) : [];
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
          average_price_usd: rows.length ? round2(rows.reduce((n, r) => n + r.price_usd, 0) / rows.length) : null,
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/cards/{card_id}/stash-score',
      summary: 'A 0–100 collectability score from price momentum, rarity, liquidity and source agreement',
      description:
        'Components, each 0–100: price_momentum = 50 + the 30-day change in percent, clamped; rarity from the rarity class (secret/hyper/gold 100, ultra/illustration/ex 80, rare/holo 60, uncommon 30, common 15, unknown 40); liquidity = 3 per auction sale in 30 days + 10 per source pricing the card, capped at 100; source_agreement = the agreeing share of the market verdict’s weight × 100. Score = 0.35 momentum + 0.20 rarity + 0.25 liquidity + 0.20 agreement. Label: strong ≥ 75, solid ≥ 50, speculative ≥ 25, weak below.',
      tags,
      params: CardPriceParams,
      response: StashScore,
      maxAge: TTL,
      cache: true,
      errors: [404, 503],
      handler: async ({ params }) => {
        const scope = await scopeOf(params.card_id);
        const [stats, sources, sales] = await precomputed.answer(params.card_id, (answers) =>
          Promise.all([
            seriesStats(answers, scope, RAW, daysAgo(364)),
            sourceMedians(answers, scope, RAW, 30),
            auctionSalesCountsOf(answers, scope, {}),
          ]),
        );
        const clamp = (x: number) => Math.max(0, Math.min(100, Math.round(x)));
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
        return { card_id: scope.card.id, score, components, label };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/cards/{card_id}/predict',
      summary: 'Price in N days from a least-squares line through the last 90 days of daily prices',
      description:
        'Confidence by daily data points: low below 10, medium 10 to 19, high 20 or more. future_points are daily up to 31 days ahead, weekly beyond, always ending on the target day.',
      tags,
      params: CardPriceParams,
      query: PredictQuery,
      response: Prediction,
      maxAge: TTL,
      cache: true,
      errors: [404, 503],
      handler: async ({ params, query }) => {
        const scope = await scopeOf(params.card_id);
        const stats = await precomputed.answer(params.card_id, (answers) => seriesStats(answers, scope, RAW, daysAgo(89)));
        const fitted =
          stats.slope_per_day !== null && stats.intercept !== null && stats.last_day_number !== null && stats.last_day !== null;
        const at = (ahead: number) => Math.max(0.01, round2(stats.intercept! + stats.slope_per_day! * (stats.last_day_number! + ahead)));
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
          card_id: scope.card.id,
          card_name: scope.card.name,
          current_price: stats.current === null ? null : round2(stats.current),
          predicted_price: predicted,
          predicted_change_pct: pctChange(predicted, stats.current),
          confidence: confidenceOf(stats.points),
          data_points: stats.points,
          trend: trendOf(stats),
          slope_per_day: stats.slope_per_day === null ? null : Math.round(stats.slope_per_day * 10000) / 10000,
          future_points: fitted
            ? steps.map((d) => ({ date: new Date(lastDay + d * 86_400_000).toISOString().slice(0, 10), price: at(d) }))
            : [],
        };
      },
    }),
  ];
};
