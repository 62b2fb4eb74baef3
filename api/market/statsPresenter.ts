// Shapes what the stats service (stats.ts) returns into the market routes' responses (schemas/market.ts).
import type { z } from 'zod';
import { SOURCE_LABELS } from '../../ingest/normalise/marketVerdict.js';
import type { DetailedStats, MarketStats, PriceIntelligenceSources, PriceIntelligenceStats } from '../../schemas/market.js';
import type { detailedStatsOf, intelligenceStatsOf, marketStatsOf, sourcesOf } from './stats.js';

type Of<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

export const presentMarketStats = ({ counts, prices, people }: Of<typeof marketStatsOf>): z.input<typeof MarketStats> => ({
  total_cards: counts.cards,
  total_prices: Number(prices?.price_points ?? 0),
  total_users: people?.users ?? 0,
  total_sellers: people?.sellers ?? 0,
  tcgs_covered: counts.games,
  last_update: prices?.updated_at ?? null,
});

export function presentIntelligenceStats({ points, priced }: Of<typeof intelligenceStatsOf>): z.input<typeof PriceIntelligenceStats> {
  const games = [...new Set(points.map((p) => p.game))];
  return {
    sources: new Set(points.map((p) => p.source)).size,
    cards_priced: priced,
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
}

export function presentDetailedStats({ games, points }: Of<typeof detailedStatsOf>): z.input<typeof DetailedStats> {
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
}

export const presentSources = (rows: Of<typeof sourcesOf>): z.input<typeof PriceIntelligenceSources> => ({
  items: rows.map((r) => ({
    ...r,
    label: SOURCE_LABELS[r.source] ?? r.source,
    cards: Number(r.cards),
    variants: Number(r.variants),
    values: Number(r.values),
  })),
});
