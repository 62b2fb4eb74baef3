// What the portal's dashboard shows of the signed-in account: its keys with today's calls, its
// webhook endpoints with their latest deliveries (Business tiers), and the deprecations whose sunset
// is within a year. pages.ts renders it.
import type { AppDeps } from '../deps.js';
import { listKeys, type User } from '../auth/accounts.js';
import { withLiveCalls } from '../auth/rateLimit.js';
import { isBusinessTier } from '../../schemas/tiers.js';
import { DEPRECATIONS } from '../http/deprecations.js';
import { listDeliveries, listEndpoints } from '../events/webhooks.js';

// Deprecations whose sunset is this close get a dashboard banner (spec: 90 days' notice).
const BANNER_DAYS = 365;

export async function dashboardOf(deps: Pick<AppDeps, 'db' | 'stores' | 'config'>, user: User) {
  const { db } = deps;
  const keys = await withLiveCalls(deps, await listKeys(db, user.id));
  const webhooks = isBusinessTier(user.tier)
    ? await Promise.all(
        (await listEndpoints(db, user.id)).map(async (w) => ({ ...w, deliveries: await listDeliveries(db, user.id, w.id, 5) })),
      )
    : null;
  const horizon = Date.now() + BANNER_DAYS * 86_400_000;
  const deprecations = DEPRECATIONS.filter((d) => Date.parse(`${d.sunset}T00:00:00Z`) <= horizon);
  return { keys, deprecations, webhooks };
}
