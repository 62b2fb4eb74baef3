// The status page's queries: feed freshness, queue lag and incidents; one typed function per file.
import { z } from 'zod';
import { Incident } from '../schemas/status.js';
import { pgQuery, pgStatement, rows } from './typedQuery.js';

/** Records a feed check of a source for a game: loaded (and the rows written), or unchanged upstream. */
export const recordFeedRun =
  pgStatement<[source: string, game: string, status: 'loaded' | 'not-modified', rows: number | null]>('status/feed_run_record');
/** Records a feed's failure and the upstream's reason. */
export const recordFeedFailure = pgStatement<[source: string, game: string, error: string]>('status/feed_failure_record');

const FeedState = z.object({
  source: z.string(),
  game: z.string(),
  last_status: z.enum(['loaded', 'not-modified']).nullable(),
  last_checked_at: z.date().nullable(),
  last_loaded_at: z.date().nullable(),
  last_rows: z.number().int().nullable(),
  last_failed_at: z.date().nullable(),
  last_error: z.string().nullable(),
});
/** Per source and game: the last check, load (with its rows) and failure. */
export const feedSourcesState = pgQuery<[], typeof FeedState>('status/feed_sources_state', FeedState);

const Freshness = z.object({ source: z.string(), age_s: z.number() });
/** Per source, seconds since its stalest game's feed was last checked. */
export const feedFreshness = pgQuery<[], typeof Freshness>('status/status_feed_freshness', Freshness);

const QueueLag = z.object({ email_s: z.number().nullable(), webhook_s: z.number().nullable() });
/** Age of the oldest waiting e-mail (still to be tried) and webhook delivery, in seconds. */
export const queueLag = pgQuery<[emailMaxAttempts: number], typeof QueueLag>('status/status_queue_lag', QueueLag);

const Opened = z.object({ id: z.number().int(), opened: z.boolean() });
/** Opens a check's incident or updates its open one; `opened` when this call opened it. */
export const openIncident = pgQuery<
  [check: string, title: string, severity: 'degraded' | 'down', detail: string, openedAt: string, seenAt: string],
  typeof Opened
>('status/status_incident_open', Opened);
/** Resolves a check's open incident as of a time; a row when there was one. */
export const resolveIncident = pgQuery<[check: string, at: string], typeof rows.id>('status/status_incident_resolve', rows.id);
/** One incident. */
export const incidentById = pgQuery<[id: number], typeof Incident>('status/status_incident_by_id', Incident);

const IncidentRow = Incident.extend({ total: z.number().int() });
/** Incidents newest first, filtered by open/resolved/all, with the filter's total. */
export const incidents = pgQuery<[status: 'open' | 'resolved' | 'all', limit: number, offset: number], typeof IncidentRow>(
  'status/status_incidents_list',
  IncidentRow,
);
