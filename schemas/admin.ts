// Operator endpoints over ingestion: start runs, read progress and summaries, pause schedules,
// inspect quarantined rows. Admin-only (the operator token until admin accounts exist).
import { DayParam, freeText, intParam, text, z } from './common.js';

const slug = z.string().regex(/^[a-z0-9-]{1,40}$/, { message: 'lowercase letters, digits and dashes' });
const workflowId = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_./:-]+$/, { message: 'not a workflow id' })
  .openapi({ description: 'Temporal workflow id, URL-encoded in the path (it contains slashes)', example: 'scrape-all/2026-11-22' });

export const StartRunBody = z
  .strictObject({
    kind: z
      .enum(['scrape', 'catalogue', 'fx'])
      .openapi({ description: 'scrape = scrapeAll over the feeds; catalogue = catalogueSync; fx = fxRates' }),
    day: DayParam.optional().openapi({ description: 'the day the run is for; today (UTC) when absent' }),
    source: slug.optional().openapi({ description: 'scrape only: one source, e.g. pokemontcg' }),
    game: slug.optional().openapi({ description: 'scrape only: one game, e.g. pokemon' }),
  })
  .refine((b) => b.kind === 'scrape' || (b.source === undefined && b.game === undefined), {
    message: 'source and game apply to scrape runs only',
    path: ['source'],
  })
  .openapi('StartRun');

export const CorrelateCardParams = z.strictObject({ card_id: intParam({ min: 1, max: 2147483647 }) });
export const StartedRun = z.object({ workflow_id: z.string(), type: z.string() }).openapi('StartedRun');

export const RunListQuery = z.strictObject({ limit: intParam({ min: 1, max: 200 }).default(50) });
export const RunParams = z.strictObject({ workflow_id: workflowId });

const RunStatus = z.enum([
  'RUNNING',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
  'TERMINATED',
  'CONTINUED_AS_NEW',
  'TIMED_OUT',
  'UNKNOWN',
  'UNSPECIFIED',
]);

export const RunListItem = z
  .object({ workflow_id: z.string(), type: z.string(), status: RunStatus, started_at: z.string(), closed_at: z.string().nullable() })
  .openapi('IngestRun');

export const RunList = z.object({ items: z.array(RunListItem) }).openapi('IngestRunList');

const FeedSummary = z
  .object({
    batchId: z.string(),
    source: z.string(),
    game: z.string(),
    asOf: z.string(),
    status: z.enum(['loaded', 'not-modified']),
    fetchedBytes: z.number().int(),
    parsed: z.number().int().openapi({ description: 'price rows the adapter read from the feed' }),
    loaded: z.number().int().openapi({ description: 'rows written to ClickHouse (flagged ones included)' }),
    flagged: z.number().int().openapi({ description: 'loaded rows marked as outliers' }),
    crossSourceFlagged: z.number().int().optional().openapi({
      description:
        "flagged rows whose source was more than 3x from the other sources' median (listed in the rejects); absent in runs recorded before the check existed",
    }),
    rejected: z.number().int().openapi({ description: 'rows quarantined in holo.ingest_rejects, with the reason' }),
    timings: z
      .record(z.string(), z.number())
      .openapi({ description: 'milliseconds per step: fetch, parse, map, outliers, insert, latest, publish' }),
  })
  .openapi('IngestFeedSummary');

const ScrapeProgress = z
  .object({
    total: z.number().int(),
    done: z.number().int(),
    failed: z.number().int(),
    running: z.array(z.string()),
    results: z.array(FeedSummary),
    failures: z.array(z.object({ source: z.string(), game: z.string(), error: z.string() })),
  })
  .openapi('ScrapeProgress');

const CorrelationProgress = z
  .object({
    first_card: z.number().int().nullable(),
    last_card: z.number().int().nullable(),
    chunks_total: z.number().int(),
    chunks_done: z.number().int(),
    cards_correlated: z.number().int().openapi({ description: 'cards with prices from at least one source in the last 30 days' }),
    cards_disagreeing: z.number().int().openapi({ description: 'of those, cards where a source is more than 15 % off the consensus' }),
  })
  .openapi('CorrelationProgress');

const CatchUpProgress = z
  .object({
    days_total: z.number().int(),
    days_done: z.number().int(),
    current: z.string().nullable().openapi({ description: 'the day being loaded' }),
    loaded: z.number().int(),
    failed_feeds: z.number().int(),
  })
  .openapi('CatchUpProgress');

export const RunDetail = RunListItem.extend({
  progress: z.union([ScrapeProgress, CorrelationProgress, CatchUpProgress]).nullable().openapi({
    description: 'scrapeAll, correlateSources and catchUp runs: live progress from the workflow query (also after completion)',
  }),
  result: z
    .unknown()
    .openapi({ description: 'the workflow result once completed (a summary per feed, catalogue counts, or the loaded FX days)' }),
  failure: z.string().nullable(),
}).openapi('IngestRunDetail');

export const ScheduleList = z
  .object({
    items: z.array(
      z.object({
        id: z.string(),
        paused: z.boolean(),
        every_hours: z.number(),
        next_run_at: z.string().nullable(),
        runs_so_far: z.number().int(),
        note: z.string().nullable(),
      }),
    ),
  })
  .openapi('IngestSchedules');

export const PauseBody = z.strictObject({ note: freeText({ max: 200 }).optional() }).openapi('SchedulePause');

export const RejectsQuery = z.strictObject({
  batch_id: text({ max: 200 }).optional(),
  source: slug.optional(),
  limit: intParam({ min: 1, max: 1000 }).default(100),
});

export const CrossSourceFlagsQuery = z.strictObject({
  days: intParam({ min: 1, max: 180 }).default(30),
  source: slug.optional().openapi({ description: 'one price source (tcgplayer, cardmarket, scryfall, pricecharting)' }),
});

export const CrossSourceFlagsResponse = z
  .object({
    days: z.number().int(),
    rule: z
      .object({
        factor: z.number(),
        min_other_sources: z.number().int(),
        window_days: z.number().int(),
        price_types: z.array(z.string()),
      })
      .openapi({
        description:
          "a source's market value (raw market, trend or raw_us, in USD) more than `factor` times above or below the median of at least `min_other_sources` other sources' newest values of the variant (no older than `window_days`) flags every row of that source and variant in the batch",
      }),
    flags: z.array(z.object({ day: z.string(), feed: z.string(), source: z.string(), flagged: z.number().int() })).openapi({
      description: 'flagged source-variant pairs per feed and day (the batch day), oldest first; days without flags are left out',
    }),
  })
  .openapi('CrossSourceFlags');

export const RejectsResponse = z
  .object({
    items: z.array(
      z.object({
        batch_id: z.string(),
        source: z.string(),
        game: z.string(),
        ref: z.string(),
        reason: z.string(),
        rejected_at: z.string(),
      }),
    ),
    by_reason: z
      .array(z.object({ source: z.string(), reason: z.string(), rows: z.number().int() }))
      .openapi({ description: 'counts over the same filter' }),
  })
  .openapi('IngestRejects');

export const SourcesResponse = z
  .object({
    items: z.array(
      z.object({
        source: z.string().openapi({ example: 'pokemontcg' }),
        url: z.string().openapi({ description: 'the base URL the connector reads from', example: 'https://api.pokemontcg.io' }),
        credentials: z
          .array(z.object({ variable: z.string(), present: z.boolean() }))
          .openapi({ description: 'the environment variables holding its credentials, and whether each is set (never their values)' }),
        credentials_required: z.boolean(),
        on: z.boolean().openapi({ description: 'false: a required credential is missing, and its feeds fail saying which to set' }),
        feeds: z.array(
          z.object({
            game: z.string(),
            last_success_at: z.string().nullable().openapi({ description: 'the last load' }),
            rows: z.number().int().nullable().openapi({ description: 'rows the last load wrote' }),
            last_checked_at: z.string().nullable().openapi({ description: 'the last load or not-modified check' }),
            freshness_s: z.number().nullable().openapi({ description: 'seconds since the last check; null: never' }),
            last_error: z.string().nullable().openapi({ description: "the upstream's own reason of the last failure since the last load" }),
            last_failed_at: z.string().nullable(),
          }),
        ),
      }),
    ),
  })
  .openapi('IngestSources');
