// Where prices disagree (spec: "Market intelligence"): the gap between a card's cheapest and dearest
// source (ClickHouse, last 7 days) and cards offered well below their market price (PostgreSQL).
// spreadsPresenter.ts shapes what these return.
import type { z } from 'zod';
import { bestDeals, marketSpread } from '../../sql/market.js';
import type { DealsQuery, SpreadQuery } from '../../schemas/market.js';
import { labelsOf } from './cardLabels.js';
import type { MarketDeps } from './movers.js';

/** Cards whose sources' prices differ by at least `min_spread_pct`, widest first. */
export async function spreadOf({ db, analytics }: MarketDeps, query: z.output<typeof SpreadQuery>) {
  const rows = await marketSpread(analytics, { game: query.tcg_slug ?? '', min_spread_pct: query.min_spread_pct, limit: query.limit });
  const names = await labelsOf(
    db,
    rows.map((r) => Number(r.card_id)),
  );
  return rows.flatMap((r) => {
    const card = names.get(Number(r.card_id));
    const [, low, high, cheapest, dearest, sources] = r.t;
    return card ? [{ card, low, high, spread_pct: r.spread_pct, cheapest, dearest, sources: Number(sources) }] : [];
  });
}

/** Cards whose lowest current US ask is at least `min_discount_pct` below the reference price. */
export const dealsOf = ({ db }: MarketDeps, query: z.output<typeof DealsQuery>) =>
  bestDeals(db, query.tcg_slug ?? null, query.min_discount_pct, query.limit);
