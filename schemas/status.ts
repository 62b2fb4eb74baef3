// The status page (spec: GET /api/status/checks, /api/status/incidents; GET /admin/status/stream;
// payloads not shown by the spec). A check is one probe the status monitor runs every interval;
// an incident is a period in which a check was not ok.
import { intParam, z } from './common.js';

export const CheckStatus = z.enum(['ok', 'degraded', 'down']);
export type CheckStatus = z.infer<typeof CheckStatus>;

export const StatusCheck = z
  .object({
    name: z.string().openapi({
      description:
        'postgres, clickhouse, redis, temporal (when this instance runs ingestion), freshness:<source> (feeds checked per the 6-hour schedule), queue:email, queue:webhooks',
    }),
    label: z.string(),
    status: CheckStatus,
    detail: z.string(),
    latency_ms: z.number().nullable().openapi({ description: 'the probe’s round trip, for store checks' }),
    since: z.string().openapi({ description: 'when the check entered its current status (as this instance saw it)' }),
  })
  .openapi('StatusCheck');

export const StatusChecks = z
  .object({
    status: CheckStatus.openapi({ description: 'the worst of the checks' }),
    checked_at: z.string().nullable(),
    interval_s: z.number(),
    checks: z.array(StatusCheck),
  })
  .openapi('StatusChecks');

export const Incident = z
  .object({
    id: z.number().int(),
    check: z.string(),
    title: z.string(),
    severity: z.enum(['degraded', 'down']).openapi({ description: 'the worst seen while open' }),
    detail: z.string().openapi({ description: 'the latest observation' }),
    status: z.enum(['open', 'resolved']),
    opened_at: z.string(),
    last_seen_at: z.string(),
    resolved_at: z.string().nullable(),
    duration_s: z.number().int(),
  })
  .openapi('Incident');

export const IncidentsQuery = z.strictObject({
  status: z.enum(['open', 'resolved', 'all']).default('all'),
  limit: intParam({ min: 1, max: 100 }).default(20),
  offset: intParam({ min: 0, max: 100_000 }).default(0),
});
export const IncidentList = z.object({ items: z.array(Incident), total: z.number().int() }).openapi('IncidentList');
