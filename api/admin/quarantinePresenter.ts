// Shapes what the quarantine service (quarantine.ts) returns into the admin routes' responses (schemas/admin.ts).
import type { z } from 'zod';
import { CROSS_SOURCE_RULE } from '../../ingest/normalise/crossSource.js';
import type { CrossSourceFlagsQuery, CrossSourceFlagsResponse, RejectsResponse } from '../../schemas/admin.js';
import type { crossSourceFlagsOf, rejectsOf } from './quarantine.js';

export const presentRejects = ({ items, byReason }: Awaited<ReturnType<typeof rejectsOf>>): z.input<typeof RejectsResponse> => ({
  items,
  by_reason: byReason.map((r) => ({ ...r, rows: Number(r.rows) })),
});

/** The flags with the rule that raised them. */
export const presentCrossSourceFlags = (
  flags: Awaited<ReturnType<typeof crossSourceFlagsOf>>,
  query: z.output<typeof CrossSourceFlagsQuery>,
): z.input<typeof CrossSourceFlagsResponse> => ({
  days: query.days,
  rule: {
    factor: CROSS_SOURCE_RULE.factor,
    min_other_sources: CROSS_SOURCE_RULE.minOtherSources,
    window_days: CROSS_SOURCE_RULE.windowDays,
    price_types: [...CROSS_SOURCE_RULE.priceTypes],
  },
  flags,
});
