// Ingestion inside one process (embedded mode, where chDB belongs to the API process): the local
// upstream mirror when it stands in for the real hosts (HOLO_MIRROR), Temporal (dev server or TEMPORAL_ADDRESS),
// the worker, the schedules, and a first scrape of today so a fresh start has live prices.
//
// It comes up under supervision, beside the API rather than in front of it: every step is retried
// with backoff until it succeeds or ingestion is stopped, a worker that dies is started again, and
// the state (starting, up, degraded with the last error) is what /api/health reports. A Temporal
// that is slow or down at start therefore delays prices, never the API.
import { Client, Connection, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import type { Config } from '../schemas/config.js';
import { errorFields, type Logger } from '../sql/runtime/log.js';
import type { Stores } from '../sql/stores/index.js';
import { mirrorCatalogue } from '../ingest/demoMarket/catalogueMirror.js';
import { startFeedServer, type FeedServer } from '../ingest/demoMarket/feedServer.js';
import { feedPairs } from '../ingest/upstreams/registry.js';
import { TASK_QUEUE, workflowIds } from './shared.js';
import { newestMarketDay } from '../sql/priceLoads.js';
import { cardAnalyticsState } from '../sql/cardAnalytics.js';
import { pricesEpochKey } from '../sql/stores/priceChannels.js';
import { startBulkExport, startRecognitionIndex } from './operations.js';
import { ensureSchedules } from './schedules.js';
import { startTemporal, type TemporalServer } from './temporalServer.js';
import { activityDeps } from './activities.js';
import { createIngestWorker } from './worker.js';

export type IngestionState = {
  state: 'starting' | 'up' | 'degraded' | 'stopped';
  /** The step being attempted while not up (mirror, temporal, worker, schedules, first-scrape). */
  step: string | null;
  /** The last failure while not up, kept until the step succeeds. */
  error: string | null;
  /** Failed attempts since the last success. */
  failures: number;
  since: string;
};

export type Ingestion = {
  status(): IngestionState;
  /** Resolves once ingestion is up (or stopped). */
  ready: Promise<void>;
  /** Where to look, once known. */
  urls(): { temporalUi: string | null; temporalAddress: string | null; feeds: string | null };
  stop(): Promise<void>;
};

export type SupervisionOptions = {
  /** Backoff between attempts: from initialMs, doubling up to maxMs. */
  retry?: { initialMs: number; maxMs: number };
  /** Start today's scrape once up (the schedules run the next ones). */
  firstScrape?: boolean;
};

class Stopped extends Error {}

export function superviseIngestion(config: Config, stores: Stores, log: Logger, opts: SupervisionOptions = {}): Ingestion {
  const retry = opts.retry ?? { initialMs: 1000, maxMs: 30_000 };
  let state: IngestionState = { state: 'starting', step: null, error: null, failures: 0, since: new Date().toISOString() };
  const set = (next: Partial<IngestionState>) => {
    const changed = next.state !== undefined && next.state !== state.state;
    state = { ...state, ...next, ...(changed ? { since: new Date().toISOString() } : {}) };
  };
  const stopping = new AbortController();
  let feedServer: FeedServer | null = null;
  let temporal: TemporalServer | null = null;
  let client: Client | null = null;
  let worker: { shutdown: () => void; connection: NativeConnection; running: Promise<void> } | null = null;
  // Every worker's activities, including a worker that stopped on its own and was replaced: the
  // stores close only after all of them settled.
  const activitiesSettled: (() => Promise<void>)[] = [];
  let feedsUrl: string | null = null;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      stopping.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });

  /** Runs `work` until it succeeds, pausing with backoff after each failure; throws Stopped on stop. */
  async function attempt<T>(step: string, work: () => Promise<T>): Promise<T> {
    let delay = retry.initialMs;
    for (;;) {
      if (stopping.signal.aborted) throw new Stopped();
      set({ step });
      try {
        const result = await work();
        set({ failures: 0, error: null });
        return result;
      } catch (err) {
        if (stopping.signal.aborted) throw new Stopped();
        set({ state: 'degraded', error: `${step}: ${(err as Error).message}`, failures: state.failures + 1 });
        log.warn('ingestion: step failed, retrying', { step, retry_in_ms: delay, ...errorFields(err) });
        await pause(delay);
        delay = Math.min(delay * 2, retry.maxMs);
      }
    }
  }

  async function startWorker(address: string): Promise<void> {
    const started = await createIngestWorker(address, config.temporalNamespace, activityDeps(config, stores));
    const running = started.run();
    activitiesSettled.push(started.activitiesSettled);
    worker = { shutdown: started.shutdown, connection: started.connection, running };
    // Stopped while this worker was being created: it stops before it polls.
    if (stopping.signal.aborted) started.shutdown();
    // A worker that stops on its own (lost server, fatal error) is started again; the API stays.
    running
      .catch((err: unknown) => log.error('ingestion: worker stopped', errorFields(err)))
      .finally(() => {
        if (stopping.signal.aborted || worker?.running !== running) return;
        worker = null;
        set({ state: 'degraded', error: 'worker stopped' });
        void attempt('worker', () => startWorker(address))
          .then(() => set({ state: 'up', step: null }))
          .catch(() => undefined);
      });
  }

  async function bringUp(): Promise<void> {
    if (config.mirror === 'on') {
      feedServer = await attempt('mirror', () => startFeedServer(stores.pg.url, config.feedsPort, { catalogue: mirrorCatalogue(config) }));
      feedsUrl = feedServer.url;
      log.info('upstreams: the local mirror stands in for the real hosts', { url: feedsUrl });
    }
    temporal = await attempt('temporal', () => startTemporal(config, log, { port: config.temporalPort, uiPort: config.temporalUiPort }));
    const address = temporal.address;
    await attempt('worker', () => startWorker(address));
    client = await attempt(
      'client',
      async () => new Client({ connection: await Connection.connect({ address }), namespace: config.temporalNamespace }),
    );
    const pairs = feedPairs();
    await attempt('schedules', () => ensureSchedules(client!, { pairs }));
    // Per-card analytics behind the prices (a first start after the demo load, an interrupted
    // precompute) are computed first: until then every uncached per-card read queues on ClickHouse.
    await attempt('card-analytics', async () => {
      const outcome = await catchUpCardAnalytics(client!, stores, config.redisPrefix);
      if (outcome !== 'current')
        log.info('ingestion: card analytics behind the prices, precompute asked for (one at a time)', {
          outcome,
          workflow_id: workflowIds.cardAnalyticsCatchUp,
        });
    });
    // Pictures added while the service was down (the demo's, images:fetch's) join the index.
    await attempt('recognition-index', async () => {
      const scheduleId = await startRecognitionIndex(client!);
      log.info('ingestion: recognition index update asked of its schedule (skipped while one runs)', { schedule_id: scheduleId });
    });
    // Files a stopped service could not refresh (and, on a first start, the demo's) are written now.
    await attempt('bulk-export', async () => {
      const scheduleId = await startBulkExport(client!);
      log.info('ingestion: bulk export update asked of its schedule (skipped while one runs)', { schedule_id: scheduleId });
    });
    if (opts.firstScrape ?? true) {
      const today = new Date().toISOString().slice(0, 10);
      // A start after days of downtime first loads the days it missed (an empty store has no
      // history to continue).
      await attempt('catch-up', async () => {
        const [newest] = await newestMarketDay(stores.ch.client, {});
        const days = newest && newest.day > '1970-01-01' ? missingDays(newest.day, today) : [];
        if (days.length === 0) return;
        const workflowId = workflowIds.catchUp(days[0]!, days.at(-1)!);
        try {
          await client!.workflow.start('catchUp', { args: [{ days, pairs }], taskQueue: TASK_QUEUE, workflowId });
          log.info('ingestion: catching up the days missed', {
            days: days.length,
            from: days[0],
            to: days.at(-1),
            workflow_id: workflowId,
          });
        } catch (err) {
          if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
        }
      });
      await attempt('first-scrape', async () => {
        try {
          await client!.workflow.start('scrapeAll', {
            args: [{ asOf: today, pairs, concurrency: 2 }],
            taskQueue: TASK_QUEUE,
            workflowId: workflowIds.scrapeAll(today),
          });
          log.info('ingestion: first scrape of today started', { workflow_id: workflowIds.scrapeAll(today) });
        } catch (err) {
          if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
        }
      });
    }
    set({ state: 'up', step: null });
    log.info('ingestion: up', { temporal: address, feeds: feedsUrl });
  }

  const ready = bringUp().catch((err: unknown) => {
    if (!(err instanceof Stopped)) log.error('ingestion: supervision ended', errorFields(err));
  });

  return {
    status: () => state,
    ready,
    urls: () => ({ temporalUi: temporal?.uiUrl ?? null, temporalAddress: temporal?.address ?? null, feeds: feedsUrl }),
    async stop() {
      stopping.abort();
      await ready;
      set({ state: 'stopped', step: null });
      const current = worker;
      worker = null;
      try {
        if (current) {
          current.shutdown();
          await current.running.catch(() => undefined);
        }
        await Promise.all(activitiesSettled.map((settled) => settled()));
        await current?.connection.close();
        await client?.connection.close();
      } finally {
        await temporal?.stop();
        await feedServer?.close();
      }
    },
  };
}

/**
 * Starts the card analytics catch-up (workflow cardAnalyticsCatchUp) unless the published
 * precompute holds for the current prices epoch and day, or a catch-up runs already (its id is
 * fixed: starts at once run one). 'current': nothing to do.
 */
export async function catchUpCardAnalytics(
  client: Client,
  stores: Stores,
  redisPrefix: string,
): Promise<'current' | 'started' | 'running'> {
  const [state] = await cardAnalyticsState(stores.pg.pool);
  const epoch = await stores.redis.get(pricesEpochKey(redisPrefix));
  const today = new Date().toISOString().slice(0, 10);
  if (state && state.prices_epoch === epoch && state.day === today && state.pending_since === null) return 'current';
  try {
    await client.workflow.start('cardAnalyticsCatchUp', { args: [], taskQueue: TASK_QUEUE, workflowId: workflowIds.cardAnalyticsCatchUp });
    return 'started';
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    return 'running';
  }
}

/** Days a start catches up at most: older gaps are left to `npm run ingest -- backfill`. */
export const CATCH_UP_MAX_DAYS = 30;

/** The days after `newest` and before `today` (both YYYY-MM-DD), the newest CATCH_UP_MAX_DAYS of them. */
export function missingDays(newest: string, today: string): string[] {
  const DAY_MS = 86_400_000;
  const from = Math.max(Date.parse(`${newest}T00:00:00Z`) + DAY_MS, Date.parse(`${today}T00:00:00Z`) - CATCH_UP_MAX_DAYS * DAY_MS);
  const days: string[] = [];
  for (let t = from; t < Date.parse(`${today}T00:00:00Z`); t += DAY_MS) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}
