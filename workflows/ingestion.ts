// Ingestion inside one process (embedded mode, where chDB belongs to the API process): the local
// feed server unless HOLO_FEEDS_URL names real feeds, Temporal (dev server or TEMPORAL_ADDRESS),
// the worker, the schedules, and a first scrape of today so a fresh start has live prices.
import { Client, Connection, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Config } from '../schemas/config.js';
import type { Logger } from '../sql/runtime/log.js';
import type { Stores } from '../sql/stores/index.js';
import { startFeedServer, type FeedServer } from '../ingest/demoMarket/feedServer.js';
import { feedPairs } from '../ingest/sources/registry.js';
import { TASK_QUEUE, workflowIds } from './shared.js';
import { ensureSchedules } from './schedules.js';
import { startTemporal, type TemporalServer } from './temporalServer.js';
import { activityDeps } from './activities.js';
import { createIngestWorker } from './worker.js';

export type Ingestion = { temporal: TemporalServer; feedsUrl: string; stop(): Promise<void> };

export async function startIngestion(config: Config, stores: Stores, log: Logger): Promise<Ingestion> {
  let feedServer: FeedServer | null = null;
  let feedsUrl = config.feedsUrl;
  if (!feedsUrl) {
    feedServer = await startFeedServer(stores.pg.pool, config.feedsPort);
    feedsUrl = feedServer.url;
    log.info('feeds: local market feed server', { url: feedsUrl });
  }
  const temporal = await startTemporal(config, log, { port: config.temporalPort, uiPort: config.temporalUiPort });
  const { worker, connection } = await createIngestWorker(temporal.address, config.temporalNamespace, activityDeps(config, stores));
  const running = worker.run().catch((err) => log.error('worker stopped', { error: (err as Error).message }));
  const client = new Client({ connection: await Connection.connect({ address: temporal.address }), namespace: config.temporalNamespace });
  const pairs = feedPairs();
  await ensureSchedules(client, { feedsUrl, pairs });
  const today = new Date().toISOString().slice(0, 10);
  try {
    await client.workflow.start('scrapeAll', {
      args: [{ asOf: today, feedsUrl, pairs, concurrency: 2 }],
      taskQueue: TASK_QUEUE,
      workflowId: workflowIds.scrapeAll(today),
    });
    log.info('ingestion: first scrape of today started', { workflow_id: workflowIds.scrapeAll(today) });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  return {
    temporal,
    feedsUrl,
    stop: async () => {
      try {
        worker.shutdown();
        await running;
        await connection.close();
        await client.connection.close();
      } finally {
        await temporal.stop();
        await feedServer?.close();
      }
    },
  };
}
