// Market and price-intelligence statistics (spec: "Market intelligence, price intelligence"):
// catalogue counts from PostgreSQL, price points and source coverage from ClickHouse.
// statsPresenter.ts adds them up and shapes them.
import { catalogueDetailCounts, pricedCardCount, pricePointStats, pricePointTotals, sourceCoverage, userCounts } from '../../sql/market.js';
import { catalogueTotals } from '../v2/catalogue.js';
import type { MarketDeps } from './movers.js';

/** Cards, games, price points, users and sellers. */
export async function marketStatsOf({ db, analytics }: MarketDeps) {
  const [counts, [prices], [people]] = await Promise.all([catalogueTotals(db), pricePointTotals(analytics, {}), userCounts(db)]);
  return { counts, prices, people };
}

/** Price points and outliers per game and source, and how many cards have a price. */
export async function intelligenceStatsOf({ db, analytics }: MarketDeps) {
  const [points, [priced]] = await Promise.all([pricePointStats(analytics, {}), pricedCardCount(db)]);
  return { points, priced: priced?.n ?? 0 };
}

/** Catalogue counts per game, and price points per game and source. */
export async function detailedStatsOf({ db, analytics }: MarketDeps) {
  const [games, points] = await Promise.all([catalogueDetailCounts(db), pricePointStats(analytics, {})]);
  return { games, points };
}

/** Each price source's coverage: cards, variants, values and newest day. */
export const sourcesOf = ({ analytics }: MarketDeps) => sourceCoverage(analytics, {});
