// Workflow code only orchestrates: deterministic, no I/O, no clocks; activities do the work.
import {
  ApplicationFailure,
  ParentClosePolicy,
  executeChild,
  proxyActivities,
  sleep,
  startChild,
  proxyLocalActivities,
  setHandler,
  defineQuery,
  workflowInfo,
  patched,
  log,
} from '@temporalio/workflow';
import type { Activities, CatalogueSyncResult, FxRatesResult } from './activities.js';
import {
  PROGRESS_QUERY,
  type CatchUpProgress,
  type CorrelationProgress,
  type IngestInput,
  type RecognitionIndexProgress,
  type BulkExportProgress,
  type IngestSummary,
  type ScrapeProgress,
  type WebhookRetry,
  workflowIds,
} from './shared.js';

const retry = { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 };

// A worker that dies mid-activity stops heartbeating; 20 s later the attempt is retried elsewhere.
const { cardsWithPictures, indexCardPictures } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  retry,
});

// A month of a large game's prices takes seconds to write; heartbeats mark each step.
const { bulkExportPlan, writeBulkExport } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry,
});

const { loadEcbRates, ingestPriceFeed } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '20 seconds',
  retry,
});

// Scryfall's bulk file alone is about 500 MB; heartbeats mark each set or chunk written.
const { syncCatalogue } = proxyActivities<Activities>({
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '1 minute',
  retry,
});

// Issue 35: the per-card analytics of what a load changed, computed after its insert: after a
// feed run on its own, and once after a whole scrape for all its feeds (a feed's cards are most
// of the catalogue: a precompute after each of a day's feeds would compute every card many times).
const { precomputeCardAnalytics } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry,
});

// At start it is usually every card: the full demo's 26,554 took 8 min (one attempt) on a shared
// machine, beside the start's bulk export and first scrape. The heartbeats tell a worker gone.
const { precomputeCardAnalytics: precomputeEveryCard } = proxyActivities<Activities>({
  startToCloseTimeout: '3 hours',
  heartbeatTimeout: '2 minutes',
  retry,
});

/**
 * Precomputes the analytics of the cards whose prices landed since this workflow began (a minute
 * earlier, for clocks a little apart). A failure leaves the load standing: readers answer from the
 * previous precompute while it is retried, then from ClickHouse.
 */
async function precomputeAfterLoad(): Promise<void> {
  if (!patched('card-analytics-precompute')) return;
  try {
    await precomputeCardAnalytics({ changedSince: new Date(workflowInfo().startTime.getTime() - 60_000).toISOString() });
  } catch (err) {
    log.warn('card analytics precompute failed; reads ask ClickHouse until the next load precomputes', { cause: (err as Error).message });
  }
}

/**
 * The card analytics brought up to the current prices when a start finds them behind (nothing
 * published yet, as after the demo load; a precompute interrupted; a load no precompute followed):
 * the same activity as after a load, over what the last published precompute does not hold (every
 * card when nothing was published or the day moved). Run under a fixed id (ingestion.ts), so starts
 * at once run one. Its batches are in the log and the activity's heartbeats.
 */
export async function cardAnalyticsCatchUp(): ReturnType<Activities['precomputeCardAnalytics']> {
  return precomputeEveryCard({ changedSince: new Date(workflowInfo().startTime).toISOString() });
}

export const progressQuery = defineQuery<ScrapeProgress>(PROGRESS_QUERY);

/**
 * Daily euro reference rates into ClickHouse, for region conversion: the ECB's daily file, its last
 * 90 days when Holo's rates have a gap (or none yet), or the document asked for. Scheduled runs
 * pass no batch id: the day names the batch.
 */
export async function fxRates(input: { document?: 'hist-90d' | 'daily'; batchId?: string } = {}): Promise<FxRatesResult> {
  const day = new Date(workflowInfo().startTime).toISOString().slice(0, 10);
  const result = await loadEcbRates({ document: input.document, batchId: input.batchId ?? `ecb/${day}` });
  if (result.loaded > 0) await precomputeAfterLoad();
  return result;
}

/** The innermost cause's message: the upstream's own reason, not "Activity task failed". */
function reasonOf(err: unknown): string {
  let current = err as { message?: string; cause?: unknown } | undefined;
  while (current?.cause) current = current.cause as { message?: string; cause?: unknown };
  return current?.message ?? String(err);
}

/** The catalogue from the upstreams: new sets, cards, printings and variants (ids of existing ones kept). */
export async function catalogueSync(): Promise<CatalogueSyncResult> {
  return syncCatalogue();
}

/**
 * One source's prices for one game and day, then the analytics of the cards they changed (unless
 * `precompute` is false: a scrape precomputes once after all its feeds).
 */
export async function ingestSource(input: IngestInput & { precompute?: boolean }): Promise<IngestSummary> {
  const { precompute = true, ...feed } = input;
  const summary = await ingestPriceFeed(feed);
  if (precompute && summary.loaded > 0) await precomputeAfterLoad();
  return summary;
}

/**
 * Every (source, game) feed as child workflows, at most `concurrency` at a time; one failing feed
 * does not stop the others. Without asOf (a scheduled run) the day is the workflow's own start
 * time, which Temporal keeps deterministic on replay.
 */
export async function scrapeAll(input: {
  asOf?: string;
  pairs: { source: string; game: string }[];
  concurrency?: number;
}): Promise<ScrapeProgress> {
  const asOf = input.asOf ?? new Date(workflowInfo().startTime).toISOString().slice(0, 10);
  const progress: ScrapeProgress = { total: input.pairs.length, done: 0, failed: 0, running: [], results: [], failures: [] };
  setHandler(progressQuery, () => progress);
  const queue = [...input.pairs];
  const parent = workflowInfo().workflowId;
  // Histories recorded before the scrape's own precompute replay with each feed's.
  const precomputeOnce = patched('card-analytics-precompute-per-scrape');
  const lane = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const name = `${next.source}/${next.game}`;
      progress.running.push(name);
      try {
        const result = await executeChild(ingestSource, {
          args: [{ source: next.source, game: next.game, asOf, ...(precomputeOnce ? { precompute: false } : {}) }],
          workflowId: `${parent}/${name}`,
        });
        progress.results.push(result);
        progress.done++;
      } catch (err) {
        progress.failed++;
        progress.failures.push({ ...next, error: reasonOf(err) });
      } finally {
        progress.running = progress.running.filter((r) => r !== name);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, input.concurrency ?? 2) }, lane));
  if (progress.done === 0 && progress.total > 0)
    throw ApplicationFailure.nonRetryable(`every feed failed: ${JSON.stringify(progress.failures)}`);
  if (precomputeOnce && progress.results.some((r) => r.loaded > 0)) await precomputeAfterLoad();
  return progress;
}

const { attemptWebhookDeliveries } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  retry,
});
const { failWebhookDelivery } = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry });

/**
 * The first attempt of every delivery of a page, side by side in one activity; only those that
 * need another go on to a deliverWebhook workflow of their own. One workflow per page rather than
 * per delivery: the server's writes per workflow, not the POSTs, were what held 1,000 deliveries
 * back (see README "Scaling out"). A retried activity skips what is already delivered.
 */
export async function deliverWebhooks(input: {
  deliveryIds: number[];
  retry: WebhookRetry;
}): Promise<{ delivered: number; retrying: number; gone: number }> {
  const outcomes = await attemptWebhookDeliveries(input.deliveryIds);
  const retrying = input.deliveryIds.filter((_, i) => outcomes[i] === 'retry');
  for (const deliveryId of retrying)
    await startChild(deliverWebhook, {
      workflowId: workflowIds.webhookDelivery(deliveryId),
      args: [{ deliveryId, retry: input.retry, attemptsMade: 1 }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  return {
    delivered: outcomes.filter((o) => o === 'delivered').length,
    retrying: retrying.length,
    gone: outcomes.filter((o) => o === 'gone').length,
  };
}

/**
 * One webhook delivery: attempts with exponential backoff (Temporal's retry policy) until a 2xx,
 * the attempts run out (the delivery fails; the endpoint may be disabled), or the endpoint is
 * gone or disabled. `attemptsMade`: attempts already made elsewhere (deliverWebhooks' first), so
 * the next waits the first backoff interval and the attempt count goes on from there.
 */
export async function deliverWebhook(input: {
  deliveryId: number;
  retry: WebhookRetry;
  attemptsMade?: number;
}): Promise<'delivered' | 'failed' | 'gone'> {
  const made = input.attemptsMade ?? 0;
  if (made >= input.retry.maxAttempts) {
    await failWebhookDelivery({ deliveryId: input.deliveryId, disableAfter: input.retry.disableAfter });
    return 'failed';
  }
  if (made > 0) await sleep(`${input.retry.initialRetrySeconds * 2 ** (made - 1)} seconds`);
  // Local activities: an attempt runs inside the workflow task, without a round trip through the
  // server's activity queue per attempt (delivery latency), with the same retry policy.
  const { attemptWebhookDelivery } = proxyLocalActivities<Activities>({
    startToCloseTimeout: '30 seconds',
    retry: {
      initialInterval: `${input.retry.initialRetrySeconds * 2 ** made} seconds`,
      backoffCoefficient: 2,
      maximumInterval: '10 minutes',
      maximumAttempts: input.retry.maxAttempts - made,
    },
  });
  try {
    return await attemptWebhookDelivery({ deliveryId: input.deliveryId, attemptsMade: made });
  } catch {
    await failWebhookDelivery({ deliveryId: input.deliveryId, disableAfter: input.retry.disableAfter });
    return 'failed';
  }
}

const {
  queueDailyDigests,
  sendEmailOutbox,
  sendPushOutbox,
  expireListings: expireDueListings,
} = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry,
});

/**
 * Listings past their 60 days become expired and their sellers are e-mailed a renewal link
 * (scheduled hourly). Also the outboxes' safety net: pushes whose run could not be started go out.
 */
export async function expireListings(): Promise<{ expired: number; sent: number; failed: number; pushed: number }> {
  const expired = await expireDueListings();
  const mail = await sendEmailOutbox();
  return { expired, ...mail, pushed: (await sendPushOutbox()).sent };
}

/** The daily digest e-mails (scheduled), then the outbox is sent when SMTP is configured. */
export async function dailyDigest(): Promise<{ queued: number; sent: number; failed: number }> {
  const queued = await queueDailyDigests();
  return { queued, ...(await sendEmailOutbox()) };
}

/** Push outbox rounds a run makes at most: the first send and every retry of a push (5 by default). */
const PUSH_ROUNDS = 25;

/**
 * Sends what waits in the push outbox, then sleeps until the next retry is due and sends again,
 * until nothing waits (started after a notification is recorded; several runs share the work).
 */
export async function pushOutbox(): Promise<{ sent: number; gone: number; failed: number }> {
  const total = { sent: 0, gone: 0, failed: 0 };
  for (let round = 0; round < PUSH_ROUNDS; round++) {
    const r = await sendPushOutbox();
    total.sent += r.sent;
    total.gone += r.gone;
    total.failed += r.failed;
    if (r.nextDueSeconds === null) break;
    await sleep(`${Math.max(1, Math.ceil(r.nextDueSeconds))} seconds`);
  }
  return total;
}

/** Sends what waits in the e-mail outbox (started after the API queues mail). */
export async function emailOutbox(): Promise<{ sent: number; failed: number }> {
  return sendEmailOutbox();
}

const { cardIdRange, correlateCards } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  retry,
});

export const correlationProgressQuery = defineQuery<CorrelationProgress>(PROGRESS_QUERY);

/** Card ids per correlateCards activity: one ClickHouse read and one PostgreSQL write each. */
const CORRELATION_CHUNK = 2_000;

/**
 * Cross-source correlation of every card (or one): the catalogue's id range in chunks, one
 * activity each, so a long run shows its progress and a failed chunk is retried alone.
 */
export async function correlateSources(input: { cardId?: number }): Promise<CorrelationProgress> {
  const range = input.cardId === undefined ? await cardIdRange() : { first_card: input.cardId, last_card: input.cardId };
  const span = range.first_card === null || range.last_card === null ? 0 : range.last_card - range.first_card + 1;
  const progress: CorrelationProgress = {
    ...range,
    chunks_total: Math.ceil(span / CORRELATION_CHUNK),
    chunks_done: 0,
    cards_correlated: 0,
    cards_disagreeing: 0,
  };
  setHandler(correlationProgressQuery, () => progress);
  for (let first = range.first_card ?? 0; progress.chunks_done < progress.chunks_total; first += CORRELATION_CHUNK) {
    const last = Math.min(first + CORRELATION_CHUNK - 1, range.last_card!);
    const result = await correlateCards({ firstCard: first, lastCard: last });
    progress.chunks_done++;
    progress.cards_correlated += result.cards;
    progress.cards_disagreeing += result.disagreeing;
  }
  return progress;
}

/** Cards per indexCardPictures activity (~25 ms a changed picture, a digest for an unchanged one). */
const RECOGNITION_BATCH = 200;

export const recognitionIndexProgressQuery = defineQuery<RecognitionIndexProgress>(PROGRESS_QUERY);

/**
 * The recognition index over every card picture in the image store, in batches (one activity
 * each, retried alone), with its progress in the `progress` query.
 */
export async function recognitionIndex(): Promise<RecognitionIndexProgress> {
  const cardIds = await cardsWithPictures();
  const progress: RecognitionIndexProgress = { cards_total: cardIds.length, cards_done: 0, computed: 0, unchanged: 0, unreadable: 0 };
  setHandler(recognitionIndexProgressQuery, () => progress);
  for (let i = 0; i < cardIds.length; i += RECOGNITION_BATCH) {
    const batch = cardIds.slice(i, i + RECOGNITION_BATCH);
    const result = await indexCardPictures(batch);
    progress.cards_done += batch.length;
    progress.computed += result.computed;
    progress.unchanged += result.unchanged;
    progress.unreadable += result.unreadable;
  }
  return progress;
}

export const bulkExportProgressQuery = defineQuery<BulkExportProgress>(PROGRESS_QUERY);

/**
 * The bulk export files brought up to date: every data set whose files hold an older state of the
 * stores (its stamp), one activity a group (a catalogue, the latest prices, a game's months;
 * retried alone), progress in the `progress` query.
 */
export async function bulkExport(): Promise<BulkExportProgress> {
  const plan = await bulkExportPlan();
  const total = plan.reduce((n, group) => n + group.length, 0);
  const progress: BulkExportProgress = { datasets_total: total, datasets_done: 0, current: null, rows: 0, bytes: 0 };
  setHandler(bulkExportProgressQuery, () => progress);
  for (const group of plan) {
    progress.current = group[0]!.dataset;
    for (const written of await writeBulkExport(group)) {
      progress.rows += written.rows;
      progress.bytes += written.bytes;
      progress.datasets_done++;
    }
  }
  progress.current = null;
  return progress;
}

export const catchUpProgressQuery = defineQuery<CatchUpProgress>(PROGRESS_QUERY);

/**
 * The days a stopped service missed, oldest first: one scrapeAll per day, so the history runs on
 * from the last loaded day to today without a gap. A day whose feeds all fail is counted and the
 * next one goes on.
 */
export async function catchUp(input: { days: string[]; pairs: { source: string; game: string }[] }): Promise<CatchUpProgress> {
  const progress: CatchUpProgress = { days_total: input.days.length, days_done: 0, current: null, loaded: 0, failed_feeds: 0 };
  setHandler(catchUpProgressQuery, () => progress);
  const parent = workflowInfo().workflowId;
  for (const day of input.days) {
    progress.current = day;
    try {
      const result = await executeChild(scrapeAll, {
        args: [{ asOf: day, pairs: input.pairs, concurrency: 2 }],
        workflowId: `${parent}/${day}`,
      });
      progress.loaded += result.results.reduce((n, r) => n + r.loaded, 0);
      progress.failed_feeds += result.failed;
    } catch {
      progress.failed_feeds += input.pairs.length;
    }
    progress.days_done++;
  }
  progress.current = null;
  return progress;
}
