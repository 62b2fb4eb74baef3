// The Temporal worker: runs the workflows in workflows.ts and the activities built from the stores.
import { createRequire } from 'node:module';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from './activities.js';
import { TASK_QUEUE } from './shared.js';
import { listenForPushes } from './pushWakeup.js';

const require = createRequire(import.meta.url);

export async function createIngestWorker(
  address: string,
  namespace: string,
  deps: ActivityDeps,
  opts: { shutdownGraceTime?: string } = {},
): Promise<{ worker: Worker; connection: NativeConnection; run: () => Promise<void> }> {
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    namespace,
    taskQueue: TASK_QUEUE,
    workflowsPath: require.resolve('./workflows.js'),
    activities: createActivities(deps),
    // Ingestion runs two feeds at a time (scrapeAll's lanes); the rest is webhook attempts, which wait on the network.
    maxConcurrentActivityTaskExecutions: 16,
    // Webhook deliveries start eagerly only while a workflow task slot is free: a dispatch starts one per
    // delivery at once (50 at once in the benchmark took 28 eager starts with the default 40 slots).
    maxConcurrentWorkflowTaskExecutions: 100,
    shutdownGraceTime: (opts.shutdownGraceTime ?? '10 seconds') as '10 seconds',
  });
  // Run the worker with this, not worker.run(): it also listens for pushes to send while the worker runs.
  const run = async () => {
    const stopListening = await listenForPushes(deps.pool, { address, namespace }, deps.events.log);
    try {
      await worker.run();
    } finally {
      await stopListening();
    }
  };
  return { worker, connection, run };
}
