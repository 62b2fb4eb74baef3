// What the client, the workflows and the activities share (as in Temporal's samples): the task
// queue, workflow ids built from business keys, and the types that cross the workflow boundary.
// Workflow code imports this file, so it holds constants and types only.
import type { IngestInput, IngestSummary } from '../ingest/pipeline.js';

export type { IngestInput, IngestSummary };

export const TASK_QUEUE = 'holo-ingest';

export const workflowIds = {
  fxRates: (day: string) => `fx-rates/${day}`,
  catalogueSync: (day: string) => `catalogue-sync/${day}`,
  ingestSource: (source: string, game: string, asOf: string) => `ingest/${source}/${game}/${asOf}`,
  scrapeAll: (asOf: string) => `scrape-all/${asOf}`,
  catchUp: (from: string, to: string) => `catch-up/${from}..${to}`,
  webhookDelivery: (deliveryId: number) => `webhook-delivery/${deliveryId}`,
  /** The first attempts of a page of deliveries (ids are unique and a page never changes, so its ends name it). */
  webhookDeliveries: (ids: number[]) => `webhook-deliveries/${ids[0]}-${ids.at(-1)}/${ids.length}`,
  dailyDigest: (day: string) => `daily-digest/${day}`,
  emailOutbox: (stamp: string) => `email-outbox/${stamp}`,
  pushOutbox: (stamp: string) => `push-outbox/${stamp}`,
  recognitionIndex: (stamp: string) => `recognition-index/${stamp}`,
  bulkExport: (stamp: string) => `bulk-export/${stamp}`,
  /** Fixed: one catch-up of the card analytics at a time, however many starts ask for one. */
  cardAnalyticsCatchUp: 'card-analytics/catch-up',
  correlateSources: (cardId: number | null, stamp: string) => `correlate/${cardId === null ? 'all' : `card-${cardId}`}/${stamp}`,
};

/** The live progress of a scrapeAll run, answered by its `progress` query and returned at the end. */
export type ScrapeProgress = {
  total: number;
  done: number;
  failed: number;
  running: string[];
  results: IngestSummary[];
  failures: { source: string; game: string; error: string }[];
};
export const PROGRESS_QUERY = 'progress';

/** The live progress of a recognitionIndex run (its `progress` query), and its result. */
export type RecognitionIndexProgress = {
  cards_total: number;
  cards_done: number;
  computed: number;
  unchanged: number;
  unreadable: number;
};

/** The live progress of a bulkExport run (its `progress` query), and its result. */
export type BulkExportProgress = { datasets_total: number; datasets_done: number; current: string | null; rows: number; bytes: number };

/** The live progress of a correlateSources run (its `progress` query), and its result. */
export type CorrelationProgress = {
  first_card: number | null;
  last_card: number | null;
  chunks_total: number;
  chunks_done: number;
  cards_correlated: number;
  cards_disagreeing: number;
};

/** How a webhook delivery retries: attempts, the first delay (doubling), and failures that disable an endpoint. */
export type WebhookRetry = { maxAttempts: number; initialRetrySeconds: number; disableAfter: number };

/** The live progress of a catchUp run (its `progress` query), and its result. */
export type CatchUpProgress = { days_total: number; days_done: number; current: string | null; loaded: number; failed_feeds: number };
