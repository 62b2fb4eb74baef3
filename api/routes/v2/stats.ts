import type { AppDeps } from '../../deps.js';
import { defineRoute } from '../../http/route.js';
import { StatsResponse } from '../../../schemas/v2.js';
import { catalogueStatsOf } from '../../v2/stats.js';
import { presentCatalogueStats } from '../../v2/statsPresenter.js';

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
    handler: async () => presentCatalogueStats(await catalogueStatsOf(deps)),
  }),
];
