// The market service (spec: "Market intelligence, price intelligence"): movers, the market index,
// trend predictions, FX and one card's price intelligence, computed from the typed queries of
// sql/market.ts and the formulas of the legacy price analytics. Route handlers call it.
import type { Analytics } from '../../sql/stores/analytics.js';
import type { Db } from '../../sql/stores/db.js';
import type { z } from 'zod';
import {
  bestDeals,
  cardHistoryEur,
  cardLabels,
  catalogueDetailCounts,
  latestFxRates,
  marketIndex,
  marketMovers,
  marketSpread,
  pricedCardCount,
  pricePointStats,
  pricePointTotals,
  recentUpdates,
  sourceCoverage,
  trendingCards,
  userCounts,
  type CardLabel,
  type MoverTuple,
} from '../../sql/market.js';
import { catalogueTotals } from '../v2/catalogue.js';
import { searchCards } from '../legacy/catalogueReads.js';
import { variantName } from '../legacy/variants.js';
import { DomainError, NotFound } from '../../schemas/errors.js';
import {
  CONDITION_FACTORS,
  type DealsQuery,
  type FxQuery,
  type OlderMoversQuery,
  type OverviewQuery,
  type PriceIntelligenceCardParams,
  type PriceIntelligenceCardQuery,
  type PriceIntelligenceCompareQuery,
  type PriceIntelligenceHistoryQuery,
  type PriceIntelligenceSearchQuery,
  type RadarQuery,
  type RecentQuery,
  type RisingQuery,
  type SpreadQuery,
  type TrendingQuery,
} from '../../schemas/market.js';
import { confidenceOf, daysAgo, resolveScope, round2, sourceMedians, RAW, type CardScope } from '../legacy/cardPriceAnalytics.js';
import { marketVerdict, SOURCE_LABELS } from '../../ingest/normalise/marketVerdict.js';
import { sourceAgreementOf } from '../../sql/correlation.js';
import { foilStatus } from '../legacy/variants.js';
import type { PrecomputedAnalytics } from '../legacy/precomputedAnalytics.js';

export type MarketService = ReturnType<typeof marketService>;

/** Days of each movers period (spec: 7d, 30d, 90d). */
export const PERIOD_DAYS = { '7d': 7, '30d': 30, '90d': 90 } as const;

/** A card as market lists name it. */
const cardOf = (l: CardLabel) => ({ card_id: l.card_id, name: l.name, set_name: l.set_name, tcg_slug: l.tcg_slug });

export function marketService({
  db,
  analytics,
  precomputed,
}: {
  db: Db;
  analytics: Analytics;
  precomputed: Pick<PrecomputedAnalytics, 'market'>;
}) {
  const labels = async (ids: number[]) => {
    const rows = ids.length ? await cardLabels(db, ids) : [];
    return new Map(rows.map((r) => [r.card_id, r]));
  };
  // Movers and the index are precomputed once a generation when prices land (ClickHouse otherwise).
  const moversFrom = async (analytics: Analytics, game: string, days: number, limit: number) => {
    const [row] = await marketMovers(analytics, { game, days, limit });
    const lists = { gainers: row?.gainers ?? [], losers: row?.losers ?? [], most_volatile: row?.most_volatile ?? [] };
    const names = await labels([
      ...new Set(
        Object.values(lists)
          .flat()
          .map((r) => Number(r[0])),
      ),
    ]);
    const shape = (rows: MoverTuple[]) =>
      rows.flatMap(([id, current, abs, pct, vol]) => {
        const l = names.get(Number(id));
        return l
          ? [
              {
                ...cardOf(l),
                current_price: round2(current),
                change_pct: round2(pct),
                change_abs: round2(abs),
                volatility_pct: round2(vol * 100),
              },
            ]
          : [];
      });
    return {
      as_of: row?.newest_day && row.newest_day !== '1970-01-01' ? row.newest_day : null,
      gainers: shape(lists.gainers),
      losers: shape(lists.losers),
      most_volatile: shape(lists.most_volatile),
    };
  };
  const movers = (game: string, days: number, limit: number) => precomputed.market((a) => moversFrom(a, game, days, limit));
  const marketIndexes = async (analytics: Analytics, days: number) => {
    const rows = await marketIndex(analytics, { days });
    return rows.map((r) => ({
      tcg_slug: r.game,
      newest_day: r.newest_day,
      series: Number(r.series),
      cards: Number(r.cards),
      value_now: round2(r.value_now),
      value_then: round2(r.value_then),
      change_pct: r.value_then > 0 ? round2(((r.value_now - r.value_then) / r.value_then) * 100) : null,
      rising: Number(r.rising),
      falling: Number(r.falling),
      holding: Number(r.holding),
    }));
  };
  const trending = async (q: { game: string; days: number; minPoints: number; ahead: number; direction: 1 | -1; limit: number }) => {
    const rows = await trendingCards(analytics, {
      game: q.game,
      days: q.days,
      min_points: q.minPoints,
      ahead: q.ahead,
      direction: q.direction,
      limit: q.limit,
    });
    const names = await labels(rows.map((r) => Number(r.card_id)));
    return rows.flatMap((r) => {
      const l = names.get(Number(r.card_id));
      if (!l) return [];
      const points = Number(r.points);
      return [
        {
          ...cardOf(l),
          current_price: round2(r.current),
          predicted_price: round2(r.predicted),
          predicted_change_pct: round2(r.predicted_change_pct),
          slope_per_day: Math.round(r.slope_per_day * 10000) / 10000,
          data_points: points,
          confidence: confidenceOf(points),
        },
      ];
    });
  };
  const fxLatest = async (currencies: string[]) => {
    const rows = await latestFxRates(analytics, { currencies });
    return new Map(rows.map((r) => [r.currency, r]));
  };
  const priceIntelligence = async (
    cardId: number,
    q: {
      foil_status: 'nonfoil' | 'foil' | 'etched';
      condition: keyof typeof CONDITION_FACTORS;
      language: string;
      printing: 'unlimited' | '1st_edition';
    },
  ) => {
    const scope = await resolveScope(db, cardId, undefined, q.language);
    if (!scope) throw new NotFound('card');
    const printRun = q.printing === '1st_edition' ? '1st-edition' : 'unlimited';
    const variants = scope.variants.filter(
      (v) => v.language === q.language && foilStatus(v.finish) === q.foil_status && v.print_run === printRun,
    );
    const picked: CardScope = { ...scope, selected: variants.map((v) => v.id) };
    const [sources, fx, [correlation]] = await Promise.all([
      picked.selected.length ? sourceMedians(analytics, picked, RAW, 30) : [],
      fxLatest(['EUR']),
      sourceAgreementOf(db, cardId),
    ]);
    const eur = fx.get('EUR');
    const factor = CONDITION_FACTORS[q.condition];
    const toEur = (usd: number) => round2((usd / eur!.usd_per_unit) * factor);
    const verdict = eur ? marketVerdict(sources) : null;
    const breakdown = eur ? sources.map((s) => ({ source: s.source, median_eur: toEur(s.median), n_listings: s.sample_size })) : [];
    const notes: string[] = [];
    if (variants.length === 0) notes.push(`no ${q.printing} ${q.foil_status} variant in ${q.language}`);
    if (!eur) notes.push('no euro reference rate loaded yet');
    if (verdict?.region_bias !== null && verdict?.region_bias !== undefined && Math.abs(verdict.region_bias) >= 10)
      notes.push(`European sources sit ${Math.abs(verdict.region_bias)} % ${verdict.region_bias > 0 ? 'above' : 'below'} US sources`);
    if (verdict && verdict.agreeing_sources < verdict.considered_sources)
      notes.push(
        `${verdict.considered_sources - verdict.agreeing_sources} of ${verdict.considered_sources} sources disagree by more than 15 %`,
      );
    if (factor !== 1) notes.push(`${q.condition} prices are the near-mint references × ${factor}`);
    for (const off of correlation?.disagreeing ?? [])
      notes.push(
        `correlation of ${correlation!.correlated_at.slice(0, 10)}: ${off.source} sits ${Math.abs(off.delta_pct)} % ${off.delta_pct > 0 ? 'above' : 'below'} the consensus`,
      );
    return {
      card_id: cardId,
      price_summary: {
        market_price_eur: verdict ? toEur(verdict.price) : null,
        low_eur: breakdown.length ? Math.min(...breakdown.map((b) => b.median_eur)) : null,
        high_eur: breakdown.length ? Math.max(...breakdown.map((b) => b.median_eur)) : null,
        confidence: verdict?.confidence ?? ('low' as const),
      },
      source_breakdown: breakdown,
      correlation_notes: notes,
      scope: {
        variants: variants.map((v) => v.name),
        condition: q.condition,
        condition_factor: factor,
        eur_per_usd: eur ? round2(1 / eur.usd_per_unit) : null,
        fx_date: eur?.day ?? null,
      },
      correlation: correlation
        ? {
            correlated_at: correlation.correlated_at,
            consensus_usd: correlation.consensus_usd,
            confidence: correlation.confidence,
            agreeing_sources: correlation.agreeing_sources,
            considered_sources: correlation.considered_sources,
            disagreeing: correlation.disagreeing,
          }
        : null,
      name: scope.card.name,
    };
  };
  const overview = async (query: z.output<typeof OverviewQuery>) => {
    const days = PERIOD_DAYS[query.period];
    const [games, top] = await precomputed.market((a) => Promise.all([marketIndexes(a, days), moversFrom(a, '', days, 1)]));
    const sum = (k: 'value_now' | 'value_then' | 'rising' | 'falling' | 'holding') => games.reduce((n, g) => n + g[k], 0);
    const [now, then] = [round2(sum('value_now')), round2(sum('value_then'))];
    return {
      period: query.period,
      as_of: games[0]?.newest_day ?? null,
      market: {
        value_now: now,
        value_then: then,
        change_pct: then > 0 ? round2(((now - then) / then) * 100) : null,
        rising: sum('rising'),
        falling: sum('falling'),
        holding: sum('holding'),
      },
      games: games.map(({ newest_day: _d, ...g }) => g),
      top_gainer: top.gainers[0] ?? null,
      top_loser: top.losers[0] ?? null,
    };
  };

  const marketStats = async () => {
    const [counts, [prices], [people]] = await Promise.all([catalogueTotals(db), pricePointTotals(analytics, {}), userCounts(db)]);
    return {
      total_cards: counts.cards,
      total_prices: Number(prices?.price_points ?? 0),
      total_users: people?.users ?? 0,
      total_sellers: people?.sellers ?? 0,
      tcgs_covered: counts.games,
      last_update: prices?.updated_at ?? null,
    };
  };

  const radarStats = async (query: z.output<typeof RadarQuery>) => {
    const games = await precomputed.market((a) => marketIndexes(a, PERIOD_DAYS[query.period]));
    const share = (n: number, total: number) => (total ? round2((n / total) * 100) : 0);
    return {
      period: query.period,
      as_of: games[0]?.newest_day ?? null,
      games: games.map((g) => ({
        tcg_slug: g.tcg_slug,
        rising_pct: share(g.rising, g.series),
        falling_pct: share(g.falling, g.series),
        holding_pct: share(g.holding, g.series),
        change_pct: g.change_pct,
        series: g.series,
      })),
    };
  };

  const deals = async (query: z.output<typeof DealsQuery>) => {
    const rows = await bestDeals(db, query.tcg_slug ?? null, query.min_discount_pct, query.limit);
    return { items: rows.map(({ finish, print_run, ...r }) => ({ ...r, variant: variantName(finish, print_run) })) };
  };

  const trendingPredictions = async (query: z.output<typeof TrendingQuery>) => ({
    days_ahead: query.days_ahead,
    items: await trending({
      game: query.tcg_slug ?? '',
      days: 30,
      minPoints: 10,
      ahead: query.days_ahead,
      direction: 1,
      limit: query.limit,
    }),
  });

  const rising = async (query: z.output<typeof RisingQuery>) => ({
    items: (await trending({ game: query.tcg_slug ?? '', days: 30, minPoints: 20, ahead: 30, direction: 1, limit: query.limit })).filter(
      (t) => t.slope_per_day > 0,
    ),
  });

  const olderMovers = async (query: z.output<typeof OlderMoversQuery>) => {
    const m = await movers(query.tcg_slug ?? '', 30, query.limit);
    return query.direction === 'up' ? m.gainers.filter((g) => g.change_pct > 0) : m.losers.filter((l) => l.change_pct < 0);
  };

  const spread = async (query: z.output<typeof SpreadQuery>) => {
    const rows = await marketSpread(analytics, {
      game: query.tcg_slug ?? '',
      min_spread_pct: query.min_spread_pct,
      limit: query.limit,
    });
    const names = await labels(rows.map((r) => Number(r.card_id)));
    return {
      items: rows.flatMap((r) => {
        const l = names.get(Number(r.card_id));
        const [, low, high, cheapest, dearest, sources] = r.t;
        return l
          ? [
              {
                ...cardOf(l),
                low_price: round2(low),
                high_price: round2(high),
                spread_pct: round2(r.spread_pct),
                cheapest_source: cheapest,
                dearest_source: dearest,
                sources: Number(sources),
              },
            ]
          : [];
      }),
    };
  };

  const recent = async (query: z.output<typeof RecentQuery>) => {
    const rows = await recentUpdates(analytics, { game: query.tcg_slug ?? '', limit: query.limit });
    const names = await labels(rows.map((r) => Number(r.card_id)));
    return {
      items: rows.flatMap((r) => {
        const l = names.get(Number(r.card_id));
        const [date, price, previous, source] = r.t;
        const prev = previous > 0 ? previous : null;
        return l
          ? [
              {
                ...cardOf(l),
                price: round2(price),
                previous_price: prev === null ? null : round2(prev),
                change_pct: prev ? round2(((price - prev) / prev) * 100) : null,
                source,
                date,
              },
            ]
          : [];
      }),
    };
  };

  const cardIntelligence = async (
    params: z.output<typeof PriceIntelligenceCardParams>,
    query: z.output<typeof PriceIntelligenceCardQuery>,
  ) => {
    const { name: _name, ...card } = await priceIntelligence(params.id, query);
    return card;
  };

  const sources = async () => {
    const rows = await sourceCoverage(analytics, {});
    return {
      items: rows.map((r) => ({
        ...r,
        label: SOURCE_LABELS[r.source] ?? r.source,
        cards: Number(r.cards),
        variants: Number(r.variants),
        values: Number(r.values),
      })),
    };
  };

  const fxRate = async (query: z.output<typeof FxQuery>) => {
    const fx = await fxLatest([query.from_currency, query.to_currency]);
    const [from, to] = [fx.get(query.from_currency), fx.get(query.to_currency)];
    if (!from || !to) throw new DomainError('not_found', `no reference rate for ${!from ? query.from_currency : query.to_currency}`);
    return {
      from_currency: query.from_currency,
      to_currency: query.to_currency,
      rate: Math.round((from.usd_per_unit / to.usd_per_unit) * 1e6) / 1e6,
      date: from.day < to.day ? from.day : to.day,
      source: 'ecb' as const,
    };
  };

  const intelligenceHistory = async (query: z.output<typeof PriceIntelligenceHistoryQuery>) => {
    const scope = await resolveScope(db, query.card_id);
    if (!scope) throw new NotFound('card');
    const points = await cardHistoryEur(analytics, {
      card_id: scope.card.id,
      variant_ids: scope.selected,
      since: daysAgo(query.days - 1),
    });
    return {
      card_id: scope.card.id,
      days: query.days,
      points: points.map((p) => ({ date: p.date, market_price_eur: Number(p.market_price_eur) })),
    };
  };

  const compare = async (query: z.output<typeof PriceIntelligenceCompareQuery>) => {
    const items = [];
    const missing: number[] = [];
    for (const id of query.ids) {
      try {
        items.push(await priceIntelligence(id, { foil_status: 'nonfoil', condition: 'NM', language: 'en', printing: 'unlimited' }));
      } catch (err) {
        if (!(err instanceof NotFound)) throw err;
        missing.push(id);
      }
    }
    return { items, missing };
  };

  const search = async (query: z.output<typeof PriceIntelligenceSearchQuery>) => {
    const [rows, fx] = await Promise.all([searchCards(db, { q: query.q, limit: query.limit, offset: 0 }), fxLatest(['EUR'])]);
    const eur = fx.get('EUR');
    return {
      total: rows[0]?.total ?? 0,
      items: rows.map((r) => ({
        card_id: r.id,
        name: r.name,
        set_name: r.set_name,
        tcg_slug: r.tcg_slug,
        market_price_eur: r.best_price !== null && eur ? round2(r.best_price / eur.usd_per_unit) : null,
      })),
    };
  };

  const intelligenceStats = async () => {
    const [points, [priced]] = await Promise.all([pricePointStats(analytics, {}), pricedCardCount(db)]);
    const games = [...new Set(points.map((p) => p.game))];
    return {
      sources: new Set(points.map((p) => p.source)).size,
      cards_priced: priced?.n ?? 0,
      price_points: points.reduce((n, p) => n + Number(p.points), 0),
      outliers: points.reduce((n, p) => n + Number(p.outliers), 0),
      last_day:
        points
          .map((p) => p.last_day)
          .sort()
          .at(-1) ?? null,
      by_game: games.map((g) => ({
        tcg_slug: g,
        price_points: points.filter((p) => p.game === g).reduce((n, p) => n + Number(p.points), 0),
        sources: points.filter((p) => p.game === g).length,
      })),
    };
  };

  const detailedStats = async () => {
    const [games, points] = await Promise.all([catalogueDetailCounts(db), pricePointStats(analytics, {})]);
    const total = (k: 'sets' | 'cards' | 'printings' | 'variants' | 'priced_cards') => games.reduce((n, g) => n + g[k], 0);
    const prices = points.map((p) => ({
      tcg_slug: p.game,
      source: p.source,
      points: Number(p.points),
      outliers: Number(p.outliers),
      last_day: p.last_day,
    }));
    return {
      catalogue: {
        games: games.filter((g) => g.cards > 0).length,
        sets: total('sets'),
        cards: total('cards'),
        printings: total('printings'),
        variants: total('variants'),
        priced_cards: total('priced_cards'),
      },
      by_game: games.map(({ printings: _p, ...g }) => g),
      prices,
      totals: { price_points: prices.reduce((n, p) => n + p.points, 0), outliers: prices.reduce((n, p) => n + p.outliers, 0) },
    };
  };

  return {
    movers,
    overview,
    marketStats,
    radarStats,
    deals,
    trendingPredictions,
    rising,
    olderMovers,
    spread,
    recent,
    cardIntelligence,
    sources,
    fxRate,
    intelligenceHistory,
    compare,
    search,
    intelligenceStats,
    detailedStats,
  };
}
