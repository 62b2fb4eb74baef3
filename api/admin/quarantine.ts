// What ingestion set aside, for operators: quarantined feed rows with their reasons, and the
// cross-source outlier flags (ClickHouse). quarantinePresenter.ts shapes what these return.
import type { z } from 'zod';
import type { Analytics } from '../../sql/stores/analytics.js';
import { crossSourceFlags, ingestRejects, ingestRejectsByReason } from '../../sql/ingestRejects.js';
import type { CrossSourceFlagsQuery, RejectsQuery } from '../../schemas/admin.js';

/** The newest quarantined rows of a batch or source, and counts per reason. */
export async function rejectsOf(analytics: Analytics, query: z.output<typeof RejectsQuery>) {
  const params = { batch_id: query.batch_id ?? '', source: query.source ?? '', limit: query.limit };
  const [items, byReason] = await Promise.all([
    ingestRejects(analytics, params),
    ingestRejectsByReason(analytics, { source: params.source, batch_id: params.batch_id }),
  ]);
  return { items, byReason };
}

/** Cross-source outlier flags per day, feed and price source over the last `days` days. */
export const crossSourceFlagsOf = (analytics: Analytics, query: z.output<typeof CrossSourceFlagsQuery>) =>
  crossSourceFlags(analytics, { days: query.days, source: query.source ?? '' });
