import type { AppDeps } from '../../deps.js';
import { defineRoute } from '../../http/route.js';
import { StatsResponse } from '../../../schemas/v2.js';
import { catalogueTotals } from '../../v2/catalogue.js';
import { pricePointTotals } from '../../../sql/market.js';

export const statsRoutes = (deps: AppDeps) => [
  defineRoute({
    method: 'get',
    path: '/api/v2/stats',
    summary: 'Catalogue and price counters (pre-aggregated, cached 300 s)',
    tags: ['v2'],
    response: StatsResponse,
    maxAge: 300,
    cache: true,
    errors: [503],
    handler: async () => {
      const [counts, [prices]] = await Promise.all([catalogueTotals(deps.db), pricePointTotals(deps.analytics, {})]);
      return { ...counts, price_points: Number(prices?.price_points ?? 0), updated_at: prices?.updated_at ?? new Date(0).toISOString() };
    },
  }),
];
