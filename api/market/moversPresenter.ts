// Shapes what the movers service (movers.ts) returns into the market routes' responses (schemas/market.ts).
import type { z } from 'zod';
import { round2 } from '../legacy/cardPriceAnalytics.js';
import type { Movers, MoversQuery, OlderMovers, Overview, RadarStats, RecentUpdates } from '../../schemas/market.js';
import { presentCardLabel } from './cardLabels.js';
import type { Mover, moversOf, overviewOf, radarOf, recentUpdatesOf } from './movers.js';

type Of<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

const presentMover = (m: Mover) => ({
  ...presentCardLabel(m.card),
  current_price: round2(m.current),
  change_pct: round2(m.pct),
  change_abs: round2(m.abs),
  volatility_pct: round2(m.vol * 100),
});

export function presentMovers(m: Of<typeof moversOf>, query: z.output<typeof MoversQuery>): z.input<typeof Movers> {
  return {
    as_of: m.as_of,
    gainers: m.gainers.map(presentMover),
    losers: m.losers.map(presentMover),
    most_volatile: m.most_volatile.map(presentMover),
    period: query.period,
    tcg: query.tcg,
  };
}

export const presentOlderMovers = (movers: Mover[]): z.input<typeof OlderMovers> => movers.map(presentMover);

export function presentOverview(o: Of<typeof overviewOf>): z.input<typeof Overview> {
  return {
    period: o.period,
    as_of: o.games[0]?.newest_day ?? null,
    market: o.market,
    games: o.games.map(({ newest_day: _d, ...g }) => g),
    top_gainer: o.top_gainer && presentMover(o.top_gainer),
    top_loser: o.top_loser && presentMover(o.top_loser),
  };
}

export function presentRadar({ period, games }: Of<typeof radarOf>): z.input<typeof RadarStats> {
  const share = (n: number, total: number) => (total ? round2((n / total) * 100) : 0);
  return {
    period,
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
}

export function presentRecentUpdates(updates: Of<typeof recentUpdatesOf>): z.input<typeof RecentUpdates> {
  return {
    items: updates.map((u) => ({
      ...presentCardLabel(u.card),
      price: round2(u.price),
      previous_price: u.previous === null ? null : round2(u.previous),
      change_pct: u.change_pct === null ? null : round2(u.change_pct),
      source: u.source,
      date: u.date,
    })),
  };
}
