// The quarantine of refused feed rows, for operators (GET /api/admin/ingest/rejects).
import { z } from 'zod';
import { chInsert, chQuery, col } from './typedQuery.js';

const { number, text } = col;

const RejectInsert = z.object({
  batch_id: z.string(),
  source: z.string(),
  game: z.string(),
  ref: z.string(),
  reason: z.string(),
  rejected_at: z.string(),
});
/** Quarantines refused feed rows (rejected_at: DateTime64 as UTC text). */
export const insertIngestRejects = chInsert('holo.ingest_rejects', RejectInsert);
type Filter = { source: string; batch_id: string };

const Reject = z.object({ batch_id: text, source: text, game: text, ref: text, reason: text, rejected_at: text });
/** Refused rows, newest first; empty filters match everything. */
export const ingestRejects = chQuery<Filter & { limit: number }, typeof Reject>('ingestRejects/ingest_rejects', Reject);

const ReasonCount = z.object({ source: text, reason: text, rows: number });
/** Refused rows counted per source and reason. */
export const ingestRejectsByReason = chQuery<Filter, typeof ReasonCount>('ingestRejects/ingest_rejects_by_reason', ReasonCount);

const CrossSourceFlags = z.object({ day: text, feed: text, source: text, flagged: number });
/** Cross-source outlier flags per day, feed and price source. */
export const crossSourceFlags = chQuery<{ days: number; source: string }, typeof CrossSourceFlags>(
  'ingestRejects/cross_source_flags',
  CrossSourceFlags,
);
