// Market movers, the market index and the newest price updates (spec: "Market intelligence"),
// computed in ClickHouse over holo.market_daily; movers and the index are precomputed once a
// generation when prices land (ClickHouse otherwise). moversPresenter.ts shapes what these return.
import type { z } from 'zod';
import type { AppDeps } from '../deps.js';
import type { Analytics } from '../../sql/stores/analytics.js';
import type { Db } from '../../sql/stores/db.js';
import { marketIndex, marketMovers, recentUpdates, type MoverTuple } from '../../sql/market.js';
import { round2 } from '../legacy/cardPriceAnalytics.js';
import type { MoversQuery, OlderMoversQuery, OverviewQuery, RadarQuery, RecentQuery } from '../../schemas/market.js';
import { labelsOf, type CardLabel } from './cardLabels.js';

export type MarketDeps = Pick<AppDeps, 'db' | 'analytics'> & { precomputed: Pick<AppDeps['precomputed'], 'market'> };

/** Days of each movers period (spec: 7d, 30d, 90d). */
export const PERIOD_DAYS = { '7d': 7, '30d': 30, '90d': 90 } as const;

/** A card's move over the period: price now, change (absolute, percent) and volatility (a share of the mean). */
export type Mover = { card: CardLabel; current: number; abs: number; pct: number; vol: number };

async function moversFrom(db: Db, analytics: Analytics, game: string, days: number, limit: number) {
  const [row] = await marketMovers(analytics, { game, days, limit });
  const lists = { gainers: row?.gainers ?? [], losers: row?.losers ?? [], most_volatile: row?.most_volatile ?? [] };
  const names = await labelsOf(db, [
    ...new Set(
      Object.values(lists)
        .flat()
        .map((r) => Number(r[0])),
    ),
  ]);
  const named = (rows: MoverTuple[]): Mover[] =>
    rows.flatMap(([id, current, abs, pct, vol]) => {
      const card = names.get(Number(id));
      return card ? [{ card, current, abs, pct, vol }] : [];
    });
  return {
    as_of: row?.newest_day && row.newest_day !== '1970-01-01' ? row.newest_day : null,
    gainers: named(lists.gainers),
    losers: named(lists.losers),
    most_volatile: named(lists.most_volatile),
  };
}

const moversOfGame = (deps: MarketDeps, game: string, days: number, limit: number) =>
  deps.precomputed.market((a) => moversFrom(deps.db, a, game, days, limit));

/** Gainers, losers and the most volatile cards of the period. */
export const moversOf = (deps: MarketDeps, query: z.output<typeof MoversQuery>) =>
  moversOfGame(deps, query.tcg === 'all' ? '' : query.tcg, PERIOD_DAYS[query.period], query.limit);

/** The movers of the last 30 days as one list, up or down; a change that shows as 0.00 % is no move. */
export async function olderMoversOf(deps: MarketDeps, query: z.output<typeof OlderMoversQuery>): Promise<Mover[]> {
  const m = await moversOfGame(deps, query.tcg_slug ?? '', 30, query.limit);
  return query.direction === 'up' ? m.gainers.filter((g) => round2(g.pct) > 0) : m.losers.filter((l) => round2(l.pct) < 0);
}

/** The market index of each game: the period's value now and then (in cents: the totals add them), rising, falling, holding. */
async function indexOf(analytics: Analytics, days: number) {
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
}

/** The index of every game, the whole market's totals, and the top gainer and loser of the period. */
export async function overviewOf(deps: MarketDeps, query: z.output<typeof OverviewQuery>) {
  const days = PERIOD_DAYS[query.period];
  const [games, top] = await deps.precomputed.market((a) => Promise.all([indexOf(a, days), moversFrom(deps.db, a, '', days, 1)]));
  const sum = (k: 'value_now' | 'value_then' | 'rising' | 'falling' | 'holding') => games.reduce((n, g) => n + g[k], 0);
  const [now, then] = [round2(sum('value_now')), round2(sum('value_then'))];
  return {
    period: query.period,
    games,
    market: {
      value_now: now,
      value_then: then,
      change_pct: then > 0 ? round2(((now - then) / then) * 100) : null,
      rising: sum('rising'),
      falling: sum('falling'),
      holding: sum('holding'),
    },
    top_gainer: top.gainers[0] ?? null,
    top_loser: top.losers[0] ?? null,
  };
}

/** The index of every game over the period (the radar shows its rising, falling and holding shares). */
export async function radarOf(deps: MarketDeps, query: z.output<typeof RadarQuery>) {
  const games = await deps.precomputed.market((a) => indexOf(a, PERIOD_DAYS[query.period]));
  return { period: query.period, games };
}

/** The newest price update of each card and its change from the price before. */
export async function recentUpdatesOf(deps: MarketDeps, query: z.output<typeof RecentQuery>) {
  const rows = await recentUpdates(deps.analytics, { game: query.tcg_slug ?? '', limit: query.limit });
  const names = await labelsOf(
    deps.db,
    rows.map((r) => Number(r.card_id)),
  );
  return rows.flatMap((r) => {
    const card = names.get(Number(r.card_id));
    const [date, price, previous, source] = r.t;
    const prev = previous > 0 ? previous : null;
    return card ? [{ card, date, price, previous: prev, change_pct: prev ? ((price - prev) / prev) * 100 : null, source }] : [];
  });
}
