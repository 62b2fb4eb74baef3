// Shapes what the spreads service (spreads.ts) returns into the market routes' responses (schemas/market.ts).
import type { z } from 'zod';
import { round2 } from '../legacy/cardPriceAnalytics.js';
import { variantName } from '../legacy/variants.js';
import type { Deals, Spread } from '../../schemas/market.js';
import { presentCardLabel } from './cardLabels.js';
import type { dealsOf, spreadOf } from './spreads.js';

type Of<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

export const presentSpread = (rows: Of<typeof spreadOf>): z.input<typeof Spread> => ({
  items: rows.map((r) => ({
    ...presentCardLabel(r.card),
    low_price: round2(r.low),
    high_price: round2(r.high),
    spread_pct: round2(r.spread_pct),
    cheapest_source: r.cheapest,
    dearest_source: r.dearest,
    sources: r.sources,
  })),
});

export const presentDeals = (rows: Of<typeof dealsOf>): z.input<typeof Deals> => ({
  items: rows.map(({ finish, print_run, ...r }) => ({ ...r, variant: variantName(finish, print_run) })),
});
