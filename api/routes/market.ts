// Market intelligence and price intelligence (spec: "Market intelligence, price intelligence"),
// all free. Market-wide figures are computed in ClickHouse over holo.market_daily; names and
// current reference prices come from PostgreSQL. Every response is cached with the prices epoch.
import type { AppDeps } from '../deps.js';
import { HttpError, NotFoundError } from '../http/errors.js';
import { defineRoute } from '../http/route.js';
import { sqlFile } from '../../sql/sqlFile.js';
import { catalogueTotals } from '../v2/catalogue.js';
import { searchCards } from '../legacy/catalogueReads.js';
import {
  confidenceOf,
  daysAgo,
  marketVerdict,
  resolveScope,
  round2,
  sourceMedians,
  RAW,
  SOURCE_LABELS,
  type CardScope,
} from '../legacy/cardPriceAnalytics.js';
import { foilStatus, variantName } from '../legacy/variants.js';
import {
  CONDITION_FACTORS,
  Deals,
  DealsQuery,
  DetailedStats,
  FxQuery,
  FxRate,
  MarketStats,
  Movers,
  MoversQuery,
  OlderMovers,
  OlderMoversQuery,
  Overview,
  OverviewQuery,
  PriceIntelligenceCard,
  PriceIntelligenceCardParams,
  PriceIntelligenceCardQuery,
  PriceIntelligenceCompare,
  PriceIntelligenceCompareQuery,
  PriceIntelligenceHistory,
  PriceIntelligenceHistoryQuery,
  PriceIntelligenceSearch,
  PriceIntelligenceSearchQuery,
  PriceIntelligenceSources,
  PriceIntelligenceStats,
  RadarQuery,
  RadarStats,
  RecentQuery,
  RecentUpdates,
  RisingCards,
  RisingQuery,
  Spread,
  SpreadQuery,
  TrendingPredictions,
  TrendingQuery,
} from '../../schemas/market.js';

const TTL = 300;
const tags = ['market'];
const piTags = ['price intelligence'];
const PERIOD_DAYS = { '7d': 7, '30d': 30, '90d': 90 } as const;

type Label = { card_id: number; name: string; set_name: string; set_code: string; tcg_slug: string; rarity: string | null };
type MoverRow = [number, number, number, number, number]; // card_id, current, change_abs, change_pct, volatility

export const marketRoutes = (deps: AppDeps) => {
  const { db, analytics, cache } = deps;
  const labels = async (ids: number[]) => {
    const rows = ids.length ? await db.query<Label>(sqlFile('postgres/queries/card_labels.sql'), [ids]) : [];
    return new Map(rows.map((r) => [r.card_id, r]));
  };
  const movers = async (game: string, days: number, limit: number) => {
    const [row] = await analytics.rows<{ newest_day: string | null; gainers: MoverRow[]; losers: MoverRow[]; most_volatile: MoverRow[] }>(
      sqlFile('clickhouse/queries/market_movers.sql'),
      { game, days, limit },
    );
    const lists = { gainers: row?.gainers ?? [], losers: row?.losers ?? [], most_volatile: row?.most_volatile ?? [] };
    const names = await labels([
      ...new Set(
        Object.values(lists)
          .flat()
          .map((r) => Number(r[0])),
      ),
    ]);
    const shape = (rows: MoverRow[]) =>
      rows.flatMap(([id, current, abs, pct, vol]) => {
        const l = names.get(Number(id));
        return l
          ? [
              {
                card_id: l.card_id,
                name: l.name,
                set_name: l.set_name,
                tcg_slug: l.tcg_slug,
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
  const marketIndex = async (days: number) => {
    const rows = await analytics.rows<{
      game: string;
      newest_day: string;
      series: string;
      cards: string;
      value_now: number;
      value_then: number;
      rising: string;
      falling: string;
      holding: string;
    }>(sqlFile('clickhouse/queries/market_index.sql'), { days });
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
  type TrendRow = {
    card_id: string;
    current: number;
    slope_per_day: number;
    points: string;
    predicted: number;
    predicted_change_pct: number;
  };
  const trending = async (q: { game: string; days: number; minPoints: number; ahead: number; direction: 1 | -1; limit: number }) => {
    const rows = await analytics.rows<TrendRow>(sqlFile('clickhouse/queries/market_trending.sql'), {
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
          card_id: l.card_id,
          name: l.name,
          set_name: l.set_name,
          tcg_slug: l.tcg_slug,
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
    const rows = await analytics.rows<{ currency: string; day: string; usd_per_unit: number }>(
      sqlFile('clickhouse/queries/fx_latest.sql'),
      { currencies },
    );
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
    if (!scope) throw new NotFoundError('card');
    const printRun = q.printing === '1st_edition' ? '1st-edition' : 'unlimited';
    const variants = scope.variants.filter(
      (v) => v.language === q.language && foilStatus(v.finish) === q.foil_status && v.print_run === printRun,
    );
    const picked: CardScope = { ...scope, selected: variants.map((v) => v.id) };
    const [sources, fx] = await Promise.all([picked.selected.length ? sourceMedians(analytics, picked, RAW, 30) : [], fxLatest(['EUR'])]);
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
      name: scope.card.name,
    };
  };

  const moversRoute = (path: string, summary: string) =>
    defineRoute({
      method: 'get',
      path,
      summary,
      tags,
      query: MoversQuery,
      response: Movers,
      maxAge: TTL,
      errors: [503],
      description:
        "A card's series is one variant's ungraded US market price from one source (the pair with the most days in the period); cards under $1 are left out; volatility is the standard deviation of the period's prices over their mean.",
      handler: ({ query }) =>
        cache.json(`market:movers:${query.tcg}:${query.period}:${query.limit}`, TTL, async () => ({
          ...(await movers(query.tcg === 'all' ? '' : query.tcg, PERIOD_DAYS[query.period], query.limit)),
          period: query.period,
          tcg: query.tcg,
        })),
    });

  return [
    moversRoute('/api/market/movers', 'Gainers, losers and the most volatile cards over 7, 30 or 90 days'),
    moversRoute('/api/market-movers', 'The same as /api/market/movers (older path)'),
    defineRoute({
      method: 'get',
      path: '/api/market/overview',
      summary: 'The market index per game: value now against the period start, rising, falling and holding series',
      tags,
      query: OverviewQuery,
      response: Overview,
      maxAge: TTL,
      errors: [503],
      handler: ({ query }) =>
        cache.json(`market:overview:${query.period}`, TTL, async () => {
          const days = PERIOD_DAYS[query.period];
          const [games, top] = await Promise.all([marketIndex(days), movers('', days, 1)]);
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
        }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/market/stats',
      summary: 'Totals: cards, price points, games covered, newest price',
      tags,
      response: MarketStats,
      maxAge: TTL,
      errors: [503],
      handler: () =>
        cache.json('market:stats', TTL, async () => {
          const [counts, [prices], [people]] = await Promise.all([
            catalogueTotals(db),
            analytics.rows<{ price_points: string; updated_at: string }>(sqlFile('clickhouse/queries/price_point_totals.sql')),
            db.query<{ users: number; sellers: number }>(
              'SELECT count(*)::int AS users, (count(*) FILTER (WHERE is_seller))::int AS sellers FROM users WHERE deleted_at IS NULL',
            ),
          ]);
          return {
            total_cards: counts.cards,
            total_prices: Number(prices?.price_points ?? 0),
            total_users: people?.users ?? 0,
            total_sellers: people?.sellers ?? 0,
            tcgs_covered: counts.games,
            last_update: prices?.updated_at ?? null,
          };
        }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/market/radar-stats',
      summary: 'Per game, the share of series rising, falling and holding over the period',
      tags,
      query: RadarQuery,
      response: RadarStats,
      maxAge: TTL,
      errors: [503],
      handler: ({ query }) =>
        cache.json(`market:radar:${query.period}`, TTL, async () => {
          const games = await marketIndex(PERIOD_DAYS[query.period]);
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
        }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/market/best-deals',
      summary: 'Cards offered well below their market price (lowest current US ask against the reference price)',
      tags,
      query: DealsQuery,
      response: Deals,
      maxAge: TTL,
      errors: [503],
      handler: ({ query }) =>
        cache.json(`market:deals:${query.tcg_slug ?? '*'}:${query.min_discount_pct}:${query.limit}`, TTL, async () => {
          const rows = await db.query<{
            card_id: number;
            name: string;
            set_name: string;
            tcg_slug: string;
            finish: string;
            print_run: string;
            market_price: number;
            lowest_price: number;
            source: string;
            as_of: string;
            discount_pct: number;
          }>(sqlFile('postgres/queries/market_best_deals.sql'), [query.tcg_slug ?? null, query.min_discount_pct, query.limit]);
          return { items: rows.map(({ finish, print_run, ...r }) => ({ ...r, variant: variantName(finish, print_run) })) };
        }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/market/trending-predictions',
      summary: 'Cards whose price line points furthest up over the coming days (least squares over 30 days)',
      tags,
      query: TrendingQuery,
      response: TrendingPredictions,
      maxAge: TTL,
      errors: [503],
      handler: ({ query }) =>
        cache.json(`market:trending:${query.tcg_slug ?? '*'}:${query.days_ahead}:${query.limit}`, TTL, async () => ({
          days_ahead: query.days_ahead,
          items: await trending({
            game: query.tcg_slug ?? '',
            days: 30,
            minPoints: 10,
            ahead: query.days_ahead,
            direction: 1,
            limit: query.limit,
          }),
        })),
    }),
    defineRoute({
      method: 'get',
      path: '/api/market/rising',
      summary: 'Rising cards: the steadiest climbers of the last 30 days (at least 20 daily prices)',
      tags,
      query: RisingQuery,
      response: RisingCards,
      maxAge: TTL,
      errors: [503],
      handler: ({ query }) =>
        cache.json(`market:rising:${query.tcg_slug ?? '*'}:${query.limit}`, TTL, async () => ({
          items: (
            await trending({ game: query.tcg_slug ?? '', days: 30, minPoints: 20, ahead: 30, direction: 1, limit: query.limit })
          ).filter((t) => t.slope_per_day > 0),
        })),
    }),
    defineRoute({
      method: 'get',
      path: '/api/market/older-movers',
      summary: 'The movers of the last 30 days as one flat list, up or down',
      tags,
      query: OlderMoversQuery,
      response: OlderMovers,
      maxAge: TTL,
      errors: [503],
      handler: ({ query }) =>
        cache.json(`market:older:${query.direction}:${query.tcg_slug ?? '*'}:${query.limit}`, TTL, async () => {
          const m = await movers(query.tcg_slug ?? '', 30, query.limit);
          return query.direction === 'up' ? m.gainers.filter((g) => g.change_pct > 0) : m.losers.filter((l) => l.change_pct < 0);
        }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/market/spread',
      summary: 'Cards whose sources disagree: the gap between the cheapest and dearest source (USD, last 7 days)',
      tags,
      query: SpreadQuery,
      response: Spread,
      maxAge: TTL,
      errors: [503],
      handler: ({ query }) =>
        cache.json(`market:spread:${query.tcg_slug ?? '*'}:${query.min_spread_pct}:${query.limit}`, TTL, async () => {
          const rows = await analytics.rows<{ card_id: string; t: [number, number, number, string, string, number]; spread_pct: number }>(
            sqlFile('clickhouse/queries/market_spread.sql'),
            {
              game: query.tcg_slug ?? '',
              min_spread_pct: query.min_spread_pct,
              limit: query.limit,
            },
          );
          const names = await labels(rows.map((r) => Number(r.card_id)));
          return {
            items: rows.flatMap((r) => {
              const l = names.get(Number(r.card_id));
              const [, low, high, cheapest, dearest, sources] = r.t;
              return l
                ? [
                    {
                      card_id: l.card_id,
                      name: l.name,
                      set_name: l.set_name,
                      tcg_slug: l.tcg_slug,
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
        }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/market/recent',
      summary: 'The newest price updates, one per card, with the change from the price before',
      tags,
      query: RecentQuery,
      response: RecentUpdates,
      maxAge: TTL,
      errors: [503],
      handler: ({ query }) =>
        cache.json(`market:recent:${query.tcg_slug ?? '*'}:${query.limit}`, TTL, async () => {
          const rows = await analytics.rows<{ card_id: string; t: [string, number, number, string] }>(
            sqlFile('clickhouse/queries/market_recent_updates.sql'),
            { game: query.tcg_slug ?? '', limit: query.limit },
          );
          const names = await labels(rows.map((r) => Number(r.card_id)));
          return {
            items: rows.flatMap((r) => {
              const l = names.get(Number(r.card_id));
              const [date, price, previous, source] = r.t;
              const prev = previous > 0 ? previous : null;
              return l
                ? [
                    {
                      card_id: l.card_id,
                      name: l.name,
                      set_name: l.set_name,
                      tcg_slug: l.tcg_slug,
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
        }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/price-intelligence/card/{id}',
      summary: 'A card’s euro price from every source, by finish, printing, language and condition',
      tags: piTags,
      params: PriceIntelligenceCardParams,
      query: PriceIntelligenceCardQuery,
      response: PriceIntelligenceCard,
      maxAge: TTL,
      errors: [404, 503],
      handler: ({ params, query }) =>
        cache.json(`pi:card:${params.id}:${JSON.stringify(query)}`, TTL, async () => {
          const { name: _name, ...card } = await priceIntelligence(params.id, query);
          return card;
        }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/price-intelligence/sources',
      summary: 'The price sources: region, currencies, coverage and newest day',
      tags: piTags,
      response: PriceIntelligenceSources,
      maxAge: TTL,
      errors: [503],
      handler: () =>
        cache.json('pi:sources', TTL, async () => {
          const rows = await analytics.rows<{
            source: string;
            region: string;
            currencies: string[];
            cards: string;
            variants: string;
            last_day: string;
            values: string;
          }>(sqlFile('clickhouse/queries/source_coverage.sql'));
          return {
            items: rows.map((r) => ({
              ...r,
              label: SOURCE_LABELS[r.source] ?? r.source,
              cards: Number(r.cards),
              variants: Number(r.variants),
              values: Number(r.values),
            })),
          };
        }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/price-intelligence/fx/rate',
      summary: 'The newest ECB reference rate between two currencies',
      tags: piTags,
      query: FxQuery,
      response: FxRate,
      maxAge: TTL,
      errors: [404, 503],
      handler: ({ query }) =>
        cache.json(`pi:fx:${query.from_currency}:${query.to_currency}`, TTL, async () => {
          const fx = await fxLatest([query.from_currency, query.to_currency]);
          const [from, to] = [fx.get(query.from_currency), fx.get(query.to_currency)];
          if (!from || !to) throw new HttpError(404, `no reference rate for ${!from ? query.from_currency : query.to_currency}`);
          return {
            from_currency: query.from_currency,
            to_currency: query.to_currency,
            rate: Math.round((from.usd_per_unit / to.usd_per_unit) * 1e6) / 1e6,
            date: from.day < to.day ? from.day : to.day,
            source: 'ecb' as const,
          };
        }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/price-intelligence/history',
      summary: 'A card’s daily market price in euros (median across sources)',
      tags: piTags,
      query: PriceIntelligenceHistoryQuery,
      response: PriceIntelligenceHistory,
      maxAge: TTL,
      errors: [404, 503],
      handler: ({ query }) =>
        cache.json(`pi:history:${query.card_id}:${query.days}`, TTL, async () => {
          const scope = await resolveScope(db, query.card_id);
          if (!scope) throw new NotFoundError('card');
          const points = await analytics.rows<{ date: string; market_price_eur: number }>(
            sqlFile('clickhouse/queries/pi_history_eur.sql'),
            {
              card_id: scope.card.id,
              variant_ids: scope.selected,
              since: daysAgo(query.days - 1),
            },
          );
          return {
            card_id: scope.card.id,
            days: query.days,
            points: points.map((p) => ({ date: p.date, market_price_eur: Number(p.market_price_eur) })),
          };
        }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/price-intelligence/compare',
      summary: 'Up to five cards’ euro prices side by side (near mint, non-foil, unlimited, English)',
      tags: piTags,
      query: PriceIntelligenceCompareQuery,
      response: PriceIntelligenceCompare,
      maxAge: TTL,
      errors: [503],
      handler: ({ query }) =>
        cache.json(`pi:compare:${query.ids.join(',')}`, TTL, async () => {
          const items = [];
          const missing: number[] = [];
          for (const id of query.ids) {
            try {
              items.push(await priceIntelligence(id, { foil_status: 'nonfoil', condition: 'NM', language: 'en', printing: 'unlimited' }));
            } catch (err) {
              if (!(err instanceof NotFoundError)) throw err;
              missing.push(id);
            }
          }
          return { items, missing };
        }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/price-intelligence/search',
      summary: 'Card search with euro reference prices',
      tags: piTags,
      query: PriceIntelligenceSearchQuery,
      response: PriceIntelligenceSearch,
      maxAge: TTL,
      errors: [503],
      handler: ({ query }) =>
        cache.json(`pi:search:${query.q}:${query.limit}`, TTL, async () => {
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
        }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/price-intelligence/stats',
      summary: 'Sources, priced cards, price points and outliers',
      tags: piTags,
      response: PriceIntelligenceStats,
      maxAge: TTL,
      errors: [503],
      handler: () =>
        cache.json('pi:stats', TTL, async () => {
          const [points, [priced]] = await Promise.all([
            analytics.rows<{ game: string; source: string; points: string; outliers: string; last_day: string }>(
              sqlFile('clickhouse/queries/price_point_stats.sql'),
            ),
            db.query<{ n: number }>('SELECT count(*)::int AS n FROM card_best_prices'),
          ]);
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
        }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/stats/detailed',
      summary: 'Catalogue counts per game and price points per game and source',
      tags,
      response: DetailedStats,
      maxAge: TTL,
      errors: [503],
      handler: () =>
        cache.json('stats:detailed', TTL, async () => {
          const [games, points] = await Promise.all([
            db.query<{ tcg_slug: string; sets: number; cards: number; printings: number; variants: number; priced_cards: number }>(
              sqlFile('postgres/queries/catalogue_detail_counts.sql'),
            ),
            analytics.rows<{ game: string; source: string; points: string; outliers: string; last_day: string }>(
              sqlFile('clickhouse/queries/price_point_stats.sql'),
            ),
          ]);
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
        }),
    }),
  ];
};
