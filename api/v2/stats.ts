// The v2 catalogue and price counters (spec: /api/v2/stats): catalogue totals from PostgreSQL, price
// points from ClickHouse. statsPresenter.ts shapes them.
import type { AppDeps } from '../deps.js';
import { pricePointTotals } from '../../sql/market.js';
import { catalogueTotals } from './catalogue.js';

export async function catalogueStatsOf({ db, analytics }: Pick<AppDeps, 'db' | 'analytics'>) {
  const [counts, [prices]] = await Promise.all([catalogueTotals(db), pricePointTotals(analytics, {})]);
  return { counts, prices };
}
