// Activities: all I/O of the workflows, built from injected dependencies and calling ingest/.
import { activityInfo, cancellationSignal, getClient, heartbeat } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { ingestFeed, SourceOffError, UnknownFeedError, type IngestDeps, type IngestInput, type IngestSummary } from '../ingest/pipeline.js';
import { createUpstreams } from '../ingest/upstreams/registry.js';
import { UpstreamError, withUpstreamStop } from '../ingest/upstreams/http.js';
import { readEcbRates, scheduledEcbRates, type EcbDocument, type EcbRead } from '../ingest/upstreams/ecb.js';
import { recordFeedFailure, recordFeedRun } from '../sql/status.js';
import type pg from 'pg';
import type { Config } from '../schemas/config.js';
import { createLogger, type Logger } from '../sql/runtime/log.js';
import type { Stores } from '../sql/stores/index.js';
import { syncCataloguesFromUpstreams } from '../ingest/catalogue/upstreams.js';
import { loadFxRates } from '../ingest/load/fxRates.js';
import { precomputeCardAnalytics, progressText, type PrecomputeResult } from '../ingest/analytics/precompute.js';
import { parseEcbRates } from '../ingest/sources/ecbRates.js';
import { FeedFormatError } from '../ingest/sources/types.js';
import { loadOrCreateSecret } from '../sql/runtime/secrets.js';
import { catalogueCountsPerGame, newestFxDay } from '../sql/priceLoads.js';
import { latestFxRates } from '../sql/market.js';
import { cardIdBounds } from '../sql/correlation.js';
import { settleAll } from '../sql/runtime/settleAll.js';
import { correlateCardRange, type RangeResult } from '../ingest/correlate/sourceAgreement.js';
import { dispatchPriceEvents } from '../ingest/events/dispatch.js';
import { queueDigests } from '../ingest/events/digest.js';
import { expireListings } from '../ingest/marketplace/listingExpiry.js';
import { loadKeyring } from '../sql/runtime/signingKeys.js';
import { createTokens, type Tokens } from '../sql/runtime/signedTokens.js';
import { createMailer, type Mailer } from '../ingest/events/email.js';
import { apnsSender, fcmSender } from '../ingest/events/mobilePush.js';
import { loadVapidKeys, pushSender, sendDuePushes, type PushRetry, type PushRound, type PushSender } from '../ingest/events/push.js';
import { secretBox, type SecretBox } from '../ingest/events/signing.js';
import { attemptDelivery, failDelivery, type AttemptResult } from '../ingest/events/webhookDeliveries.js';
import type { PriceUpdate } from '../schemas/stream.js';
import { TASK_QUEUE, workflowIds } from './shared.js';
import { startEmailOutbox, startPushOutbox } from './operations.js';
import type { WebhookRetry } from './shared.js';
import path from 'node:path';
import { ImageStore } from '../sql/stores/images.js';
import { indexCardPictures, type IndexBatchResult } from '../ingest/recognition/indexBuild.js';
import {
  planBulkExports,
  writeBulkDatasets,
  type BulkDataset,
  type BulkTarget,
  type BulkWriteResult,
} from '../ingest/export/bulkExport.js';

export type ActivityDeps = IngestDeps & {
  /** What price loads set off: alerts, notifications, e-mail, push, webhooks. */
  events: {
    webhookBox(): Promise<SecretBox>;
    webhookRetry: WebhookRetry;
    /** Production: webhook receivers must resolve to public addresses at every attempt. */
    webhookPublicOnly: boolean;
    mailer: Mailer;
    push: () => Promise<PushSender>;
    pushRetry: PushRetry;
    /** Where dispatch problems are reported (deliveries or outbox runs not started yet, gone devices). */
    log: Logger;
  };
  /** Card pictures, for the recognition index. */
  images: ImageStore;
  /** Where and from what the bulk export files are written. */
  bulk: BulkTarget;
  /** What the listing expiry signs its renewal links with, and the site they point to. */
  listingRenewal(): Promise<{ tokens: Tokens; siteOrigin: string }>;
};

/** The activities' dependencies from the configuration and the open stores. */
export function activityDeps(config: Config, stores: Stores): ActivityDeps {
  const log = createLogger(config.logLevel);
  return {
    ch: stores.ch.client,
    pool: stores.pg.pool,
    redis: stores.redis,
    redisPrefix: config.redisPrefix,
    upstreams: createUpstreams(config.upstreams),
    log,
    images: new ImageStore(path.join(config.dataDir, 'images')),
    bulk: { dir: path.join(config.dataDir, 'exports'), pool: stores.pg.pool, ch: stores.ch.client, sessions: stores.ch.sessions?.exports },
    listingRenewal: once(async () => ({
      tokens: await createTokens(await loadKeyring(config)),
      siteOrigin: config.siteOrigin,
    })),
    events: {
      webhookBox: once(async () => secretBox((await loadOrCreateSecret(config.dataDir, 'webhook-key', config.webhookKey)).value)),
      webhookRetry: {
        maxAttempts: config.webhookMaxAttempts,
        initialRetrySeconds: config.webhookRetrySeconds,
        disableAfter: config.webhookDisableAfter,
      },
      webhookPublicOnly: config.env === 'production',
      mailer: createMailer(stores.pg.pool, config.smtpUrl, config.mailFrom),
      push: once(async () =>
        pushSender({
          vapid: await loadVapidKeys(config),
          publicOnly: config.env === 'production',
          apns: config.apns && (await apnsSender(config.apns)),
          fcm: config.fcm && (await fcmSender(config.fcm)),
        }),
      ),
      pushRetry: { maxAttempts: config.pushMaxAttempts, retrySeconds: config.pushRetrySeconds },
      log,
    },
  };
}

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | null = null;
  return () =>
    (value ??= make().catch((err) => {
      value = null;
      throw err;
    }));
}

export type CatalogueCounts = Record<string, { sets: number; cards: number; printings: number; variants: number }>;
export type CatalogueSyncResult = {
  before: CatalogueCounts;
  after: CatalogueCounts;
  added: CatalogueCounts;
  /** What each game's upstream stated (cards and variants read and written). */
  read: Record<string, { cards: number; variants: number }>;
};

async function countsPerGame(pool: pg.Pool): Promise<CatalogueCounts> {
  const rows = await catalogueCountsPerGame(pool);
  return Object.fromEntries(rows.map(({ game, ...counts }) => [game, counts]));
}

export type FxRatesResult = { document: EcbDocument; fetched: number; loaded: number; rejected: number; days: string[] };

/**
 * A step's heartbeat, and where a cancelled activity stops (its run cancelled, its heartbeat timed
 * out, or its worker stopping: Ctrl-C cancels the running activities after the grace time): between
 * steps, so no statement is cut off halfway and the stores can close under nothing.
 */
function progress(step: string): void {
  heartbeat(step);
  const signal = cancellationSignal();
  if (signal.aborted) throw signal.reason;
}

// Progress of activities goes to Temporal as heartbeats and results, not to the process log.
const silentLog = createLogger('error');

/**
 * One deliverWebhooks workflow for the page of delivery ids (a page already started is left as
 * it is). `client` is a worker's own (an activity's getClient()): on its NativeConnection the
 * start is eager, the server hands the first workflow task straight back to this worker instead of
 * queueing it for a poll.
 */
export async function startWebhookDeliveries(client: Client, ids: number[], retry: WebhookRetry): Promise<{ eager: number }> {
  if (ids.length === 0) return { eager: 0 };
  const eager = await client.workflow
    .start('deliverWebhooks', {
      taskQueue: TASK_QUEUE,
      workflowId: workflowIds.webhookDeliveries(ids),
      args: [{ deliveryIds: ids, retry }],
      requestEagerStart: true,
    })
    .then((handle) => handle.eagerlyStarted)
    .catch((err) => {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      return false;
    });
  return { eager: eager ? 1 : 0 };
}

/** First attempts in flight at once: within the PostgreSQL pool, each attempt reads and writes its row. */
const FIRST_ATTEMPTS_AT_ONCE = 16;

export function createActivities(deps: ActivityDeps) {
  // Delivery workflows are started with the worker's own client.
  const startDeliveries = (ids: number[]) => startWebhookDeliveries(getClient(), ids, deps.events.webhookRetry);
  const usdPerUnit = async (): Promise<Record<string, number>> => {
    const rows = await latestFxRates(deps.ch, { currencies: ['EUR', 'GBP', 'JPY', 'CAD', 'AUD', 'CHF'] });
    return Object.fromEntries(rows.map((r) => [r.currency, r.usd_per_unit]));
  };
  const dispatchAfterLoad = async (batchId: string, updates: PriceUpdate[]) => {
    progress('dispatching alerts and webhooks');
    const { pushes } = await dispatchPriceEvents(
      { pool: deps.pool, log: deps.events.log, startDeliveries },
      { batchId, updates, usdPerUnit: await usdPerUnit() },
    );
    if (pushes > 0)
      await startPushOutbox(getClient(), batchId).catch((err: Error) =>
        deps.events.log.warn('push outbox run not started; the next one (hourly at the latest) sends them', { cause: err.message }),
      );
    // Alert e-mails (and any a failed send left) go out in their own workflow: an SMTP server that
    // is slow or unreachable must not hold the price load past its timeout.
    if (deps.events.mailer.configured) {
      await startEmailOutbox(getClient(), batchId).catch((err: Error) =>
        deps.events.log.warn('e-mail outbox run not started; the next load or digest sends the mail', { cause: err.message }),
      );
    }
  };

  return {
    /** One attempt of a webhook delivery; a non-2xx answer or a timeout is retried by the workflow's policy. */
    /** One attempt of a delivery (a bare id: from workflows started before first attempts were batched). */
    async attemptWebhookDelivery(input: number | { deliveryId: number; attemptsMade: number }): Promise<'delivered' | 'gone'> {
      const { deliveryId, attemptsMade } = typeof input === 'number' ? { deliveryId: input, attemptsMade: 0 } : input;
      const result = await attemptDelivery(deps.pool, await deps.events.webhookBox(), deliveryId, attemptsMade + activityInfo().attempt, {
        publicOnly: deps.events.webhookPublicOnly,
      });
      if (result.outcome === 'retry') throw ApplicationFailure.retryable(result.error ?? 'failed', 'WebhookAttemptFailed');
      return result.outcome;
    },

    /** The first attempt of each delivery, FIRST_ATTEMPTS_AT_ONCE at a time; the outcome of each, in order. */
    async attemptWebhookDeliveries(deliveryIds: number[]): Promise<AttemptResult['outcome'][]> {
      const box = await deps.events.webhookBox();
      const outcomes: AttemptResult['outcome'][] = new Array(deliveryIds.length);
      let next = 0;
      const lane = async () => {
        for (let i = next++; i < deliveryIds.length; i = next++) {
          outcomes[i] = (await attemptDelivery(deps.pool, box, deliveryIds[i]!, 1, { publicOnly: deps.events.webhookPublicOnly })).outcome;
          progress(`${i + 1} of ${deliveryIds.length}`);
        }
      };
      await settleAll(Array.from({ length: Math.min(FIRST_ATTEMPTS_AT_ONCE, deliveryIds.length) }, lane));
      return outcomes;
    },

    async failWebhookDelivery(input: { deliveryId: number; disableAfter: number }): Promise<{ disabled: boolean }> {
      return failDelivery(deps.pool, input.deliveryId, input.disableAfter);
    },

    /** The cards whose pictures the image store holds. */
    async cardsWithPictures(): Promise<number[]> {
      return deps.images.cardsWithOriginals();
    },

    /** Recognition features of a batch of cards' pictures (only pictures that changed are computed). */
    async indexCardPictures(cardIds: number[]): Promise<IndexBatchResult> {
      const result = await indexCardPictures(deps.pool, deps.images, cardIds, (done) => progress(`${done} of ${cardIds.length}`));
      deps.events.log.info('recognition index: batch done', { first_card: cardIds[0], last_card: cardIds.at(-1), ...result });
      return result;
    },

    /** The bulk export data sets whose files hold an older state of the stores than now, in groups written together. */
    async bulkExportPlan(): Promise<BulkDataset[][]> {
      return planBulkExports(deps.bulk);
    },

    /** One group's files (a catalogue, the latest prices, or a game's months), written and recorded; heartbeats name the step. */
    async writeBulkExport(group: BulkDataset[]): Promise<BulkWriteResult[]> {
      const results = await writeBulkDatasets(deps.bulk, group, (step) => progress(step));
      for (const result of results) deps.events.log.info('bulk export: data set written', { ...result });
      return results;
    },

    async queueDailyDigests(): Promise<number> {
      return queueDigests(deps.pool, null);
    },

    async sendEmailOutbox(): Promise<{ sent: number; failed: number }> {
      return deps.events.mailer.sendUnsent();
    },

    /** One round of the push outbox: every due push sent; when the next retry is due. */
    async sendPushOutbox(): Promise<PushRound> {
      return sendDuePushes(deps.pool, await deps.events.push(), deps.events.pushRetry, deps.events.log);
    },

    /** Listings past their expiry become expired; their sellers get a renewal link by e-mail. */
    async expireListings(): Promise<number> {
      return expireListings(deps.pool, await deps.listingRenewal());
    },

    /** One source's feed for one game and day, end to end; heartbeats name the current step. */
    async ingestPriceFeed(input: IngestInput): Promise<IngestSummary> {
      const stop = cancellationSignal();
      try {
        return await withUpstreamStop(stop, () =>
          ingestFeed({ ...deps, afterPublish: (batchId, updates) => dispatchAfterLoad(batchId, updates) }, input, (step) => progress(step)),
        );
      } catch (err) {
        // A download aborted by the stop is the stop, not the upstream's failure.
        if (stop.aborted) throw stop.reason;
        throw feedFailure(err);
      }
    },

    /**
     * Syncs the catalogue from the upstreams (pokemontcg.io, Scryfall, LorcanaJSON, the-fab-cube):
     * new sets, cards, printings and variants are added and existing rows updated in place (upserts
     * on upstream keys, so ids never change). An upstream that failed fails the activity with its
     * reason, after the others were written.
     */
    async syncCatalogue(): Promise<CatalogueSyncResult> {
      const before = await countsPerGame(deps.pool);
      progress('syncing');
      const stop = cancellationSignal();
      const { imported, failed } = await withUpstreamStop(stop, () =>
        syncCataloguesFromUpstreams(deps.pool, deps.upstreams, silentLog, (step) => progress(step)),
      );
      if (stop.aborted) throw stop.reason;
      if (failed.length > 0) {
        const message = `catalogue sync: ${failed.map((f) => `${f.game}: ${f.error.message}`).join('; ')}`;
        // Retried only when one of the failures may pass later (not a refusal or a malformed document).
        const final = failed.every((f) => (feedFailure(f.error) as { nonRetryable?: boolean }).nonRetryable === true);
        throw final
          ? ApplicationFailure.nonRetryable(message, 'CatalogueSyncFailed')
          : ApplicationFailure.retryable(message, 'CatalogueSyncFailed');
      }
      const after = await countsPerGame(deps.pool);
      const added = Object.fromEntries(
        Object.entries(after).map(([game, a]) => {
          const b = before[game] ?? { sets: 0, cards: 0, printings: 0, variants: 0 };
          return [
            game,
            { sets: a.sets - b.sets, cards: a.cards - b.cards, printings: a.printings - b.printings, variants: a.variants - b.variants },
          ];
        }),
      );
      return { before, after, added, read: Object.fromEntries(imported.map((s) => [s.game, { cards: s.cards, variants: s.variants }])) };
    },

    /** The catalogue's lowest and highest card id, for a correlation run's chunks. */
    async cardIdRange(): Promise<{ first_card: number | null; last_card: number | null }> {
      return (await cardIdBounds(deps.pool))[0]!;
    },

    /** Correlates the sources of the cards in an id range and keeps the result per card. */
    async correlateCards(input: { firstCard: number; lastCard: number }): Promise<RangeResult> {
      progress(`cards ${input.firstCard}–${input.lastCard}`);
      return correlateCardRange(deps, input.firstCard, input.lastCard);
    },

    /**
     * The per-card analytics of the cards whose prices landed since `changedSince` (issue 35), or
     * every card when nothing was published yet or the day moved; each batch is heartbeated and logged.
     */
    async precomputeCardAnalytics(input: { changedSince: string }): Promise<PrecomputeResult> {
      // Waiting for the lock while another precompute runs (a start's catch-up took 8 min on the
      // full demo), or for a batch queued behind the bulk export's ClickHouse statements, is no lost
      // worker: without these beats each heartbeat timeout started another attempt behind the lock.
      let step = 'waiting for the running precompute';
      const alive = setInterval(() => heartbeat(step), 20_000);
      try {
        const result = await precomputeCardAnalytics(deps, {
          changedSince: new Date(input.changedSince),
          progress: (p) => {
            deps.events.log.info('card analytics precompute: batch written', {
              batches_done: p.batchesDone,
              batches_total: p.batchesTotal,
              cards_done: p.cardsDone,
              cards_total: p.cardsTotal,
            });
            step = progressText(p);
            progress(step);
          },
        });
        deps.events.log.info('card analytics precomputed', { ...result });
        return result;
      } finally {
        clearInterval(alive);
      }
    },

    /**
     * Reads the ECB's reference rates and loads them: the document asked for, else the daily file
     * with a 90-day backfill when Holo's newest ECB day leaves a gap. A malformed file fails without retries.
     */
    async loadEcbRates(input: { document?: EcbDocument; batchId: string }): Promise<FxRatesResult> {
      progress('fetching');
      let read: EcbRead;
      try {
        if (input.document)
          read = { document: input.document, parsed: parseEcbRates(await readEcbRates(deps.upstreams.ecb, input.document)) };
        else {
          const [newest] = await newestFxDay(deps.ch, { source: 'ecb' });
          read = await scheduledEcbRates(deps.upstreams.ecb, newest && newest.day !== '1970-01-01' ? newest.day : null);
        }
      } catch (err) {
        await recordFeedFailure(deps.pool, 'ecb', 'fx', (err as Error).message).catch(() => undefined);
        throw feedFailure(err);
      }
      const { document, parsed } = read;
      progress('loading');
      const days = [...new Set(parsed.rates.map((r) => r.day))].sort();
      // The batch names its document and newest day: a backfill, or the next day's file, on the same
      // run day is not dropped as a repeat of the run day's first load.
      const batch = { id: `${input.batchId}/${document}/${days.at(-1) ?? 'none'}`, ingestedAt: new Date(), source: 'ecb' };
      const loaded = await loadFxRates(deps.ch, parsed.rates, batch);
      await recordFeedRun(deps.pool, 'ecb', 'fx', 'loaded', loaded);
      return { document, fetched: parsed.rates.length + parsed.rejected.length, loaded, rejected: parsed.rejected.length, days };
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;

/**
 * A feed's failure as the run detail shows it: the upstream's own reason. What retrying cannot
 * mend (credentials refused or missing, a malformed or cut-off document, a 4xx) fails the feed
 * once, without a retry storm; the rest is retried by the activity's policy.
 */
function feedFailure(err: unknown): unknown {
  const message = (err as Error).message ?? String(err);
  const final =
    err instanceof FeedFormatError ||
    err instanceof UnknownFeedError ||
    err instanceof SourceOffError ||
    (err instanceof UpstreamError && !err.retryable);
  if (final) return ApplicationFailure.nonRetryable(message, (err as Error).constructor.name);
  if (err instanceof UpstreamError) return ApplicationFailure.retryable(message, 'UpstreamError');
  return err;
}
