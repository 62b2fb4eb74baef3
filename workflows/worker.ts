// The Temporal worker: runs the workflows in workflows.ts and the activities built from the stores.
import { createRequire } from 'node:module';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from './activities.js';
import { TASK_QUEUE } from './shared.js';
import { listenForPushes } from './pushWakeup.js';

const require = createRequire(import.meta.url);

/**
 * For a process that stops its workers itself, in order (api/main.ts, workflows/main.ts): by
 * default the SDK shuts every worker down on SIGINT/SIGTERM on its own, racing that order (and
 * a second shutdown() of a worker no longer running throws). Call before the first worker.
 */
export function leaveWorkerStopToCaller(): void {
  Runtime.install({ shutdownSignals: [] });
}

export async function createIngestWorker(
  address: string,
  namespace: string,
  deps: ActivityDeps,
  opts: { shutdownGraceTime?: string } = {},
): Promise<{
  worker: Worker;
  connection: NativeConnection;
  run: () => Promise<void>;
  shutdown: () => void;
  activitiesSettled: () => Promise<void>;
}> {
  const connection = await NativeConnection.connect({ address });
  const activities = trackSettling(createActivities(deps));
  const worker = await Worker.create({
    connection,
    namespace,
    taskQueue: TASK_QUEUE,
    workflowsPath: require.resolve('./workflows.js'),
    activities: activities.tracked,
    // Ingestion runs two feeds at a time (scrapeAll's lanes); the rest is webhook attempts, which wait on the network.
    maxConcurrentActivityTaskExecutions: 16,
    // Webhook deliveries start eagerly only while a workflow task slot is free: a dispatch starts one per
    // delivery at once (50 at once in the benchmark took 28 eager starts with the default 40 slots).
    maxConcurrentWorkflowTaskExecutions: 100,
    shutdownGraceTime: (opts.shutdownGraceTime ?? '10 seconds') as '10 seconds',
  });
  // Run the worker with this, not worker.run(): it also listens for pushes to send while the worker runs.
  let stopAsked = false;
  const run = async () => {
    const stopListening = await listenForPushes(deps.pool, { address, namespace }, deps.events.log);
    try {
      // A stop asked for while the listener connected: the worker never starts.
      if (!stopAsked) await worker.run();
    } finally {
      await stopListening();
    }
  };
  /** Stops the worker whether it runs already or not yet (worker.shutdown() throws unless it runs). */
  const shutdown = () => {
    stopAsked = true;
    if (worker.getState() === 'RUNNING') worker.shutdown();
  };
  return { worker, connection, run, shutdown, activitiesSettled: activities.settled };
}

/**
 * The activities, each call counted until it settles. A worker whose Temporal server is gone may
 * end its run before its activities do; the stores they write to are closed only once
 * `settled()` resolves (a cancelled activity stops at its next step, see activities.ts).
 */
function trackSettling<T extends Record<string, (...args: never[]) => Promise<unknown>>>(
  activities: T,
): { tracked: T; settled: () => Promise<void> } {
  const running = new Set<Promise<unknown>>();
  const tracked = Object.fromEntries(
    Object.entries(activities).map(([name, activity]) => [
      name,
      (...args: never[]) => {
        const call = activity(...args);
        running.add(call);
        void call.then(
          () => running.delete(call),
          () => running.delete(call),
        );
        return call;
      },
    ]),
  ) as T;
  return {
    tracked,
    settled: async () => {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
