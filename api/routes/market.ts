// Market intelligence and price intelligence (spec: "Market intelligence, price intelligence"),
// all free. Market-wide figures are computed in ClickHouse over holo.market_daily; names and
// current reference prices come from PostgreSQL. Every response is cached with the prices epoch.
import type { AppDeps } from '../deps.js';
import { HttpError, NotFoundError } from '../http/errors.js';
import { defineRoute } from '../http/route.js';
import {
  bestDeals,
  cardHistoryEur,
  catalogueDetailCounts,
  marketSpread,
  pricedCardCount,
  pricePointStats,
  pricePointTotals,
  recentUpdates,
  sourceCoverage,
  userCounts,
} from '../../sql/market.js';
import { marketService } from '../market/service.js';
import { catalogueTotals } from '../v2/catalogue.js';
import { searchCards } from '../legacy/catalogueReads.js';
import { daysAgo, resolveScope, round2, SOURCE_LABELS } from '../legacy/cardPriceAnalytics.js';
import { variantName } from '../legacy/variants.js';
import {
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

export const marketRoutes = (deps: AppDeps) => {
  const { db, analytics, cache } = deps;
  const { labels, movers, marketIndexes, trending, fxLatest, priceIntelligence } = marketService(deps);
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
          const [games, top] = await Promise.all([marketIndexes(days), movers('', days, 1)]);
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
          const [counts, [prices], [people]] = await Promise.all([catalogueTotals(db), pricePointTotals(analytics, {}), userCounts(db)]);
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
          const games = await marketIndexes(PERIOD_DAYS[query.period]);
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
          const rows = await bestDeals(db, query.tcg_slug ?? null, query.min_discount_pct, query.limit);
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
        }),
    }),
  ];
};
