// A real Temporal for one test file: the dev server (or TEMPORAL_ADDRESS), a client, and the
// ingestion worker on the stack's stores, which a test may stop or replace with another.
import { silentLogger } from '../../sql/runtime/log.js';
import { Client, Connection } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { activityDeps, type ActivityDeps } from '../../workflows/activities.js';
import { startTemporal, type TemporalServer } from '../../workflows/temporalServer.js';
import { createIngestWorker } from '../../workflows/worker.js';
import type { Stack } from './stack.js';
import { until } from './until.js';

const silent = silentLogger();

export class TemporalRig {
  private current: { worker: Worker; connection: NativeConnection; running: Promise<void> } | null = null;

  private constructor(
    private readonly stack: Stack,
    readonly temporal: TemporalServer,
    readonly client: Client,
  ) {}

  static async start(stack: Stack, deps?: ActivityDeps): Promise<TemporalRig> {
    const temporal = await startTemporal(stack.config, silent, { port: stack.config.temporalPort });
    const client = new Client({ connection: await Connection.connect({ address: temporal.address }), namespace: 'default' });
    const rig = new TemporalRig(stack, temporal, client);
    await rig.startWorker(deps);
    return rig;
  }

  /** The worker's activities are built from `deps` (default: the stack's stores and configuration). */
  async startWorker(deps: ActivityDeps = activityDeps(this.stack.config, this.stack.stores)): Promise<void> {
    await this.stopWorker();
    const { worker, connection, run } = await createIngestWorker(this.temporal.address, 'default', deps);
    this.current = { worker, connection, running: run() };
  }

  /** The running worker's own client (on its NativeConnection), as activities get it. */
  workerClient(): Client {
    if (!this.current) throw new Error('no worker running');
    return this.current.worker.client!;
  }

  async stopWorker(): Promise<void> {
    if (!this.current) return;
    const { worker, connection, running } = this.current;
    this.current = null;
    // A worker replaced right after it was started may not poll yet, and shutdown() refuses it then.
    await until('the worker to run', () => worker.getState() !== 'INITIALIZED');
    worker.shutdown();
    await running.catch(() => undefined);
    await connection.close();
  }

  async close(): Promise<void> {
    await this.stopWorker();
    await this.client.connection.close();
    await this.temporal.stop();
  }
}
