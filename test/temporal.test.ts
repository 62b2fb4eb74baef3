// Workflows on a real Temporal server (the dev server, installed by go install when missing):
// the fxRates workflow loads the ECB file; a malformed feed fails fast, without retries.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { repoRoot } from '../api/core/paths.js';
import { TASK_QUEUE, workflowIds } from '../workflows/ids.js';
import { startTemporal, type TemporalServer } from '../workflows/temporalServer.js';
import { createIngestWorker } from '../workflows/worker.js';
import { fxRates } from '../workflows/workflows.js';
import { chRows } from './support/chq.js';
import { startStack, type Stack } from './support/stack.js';

const ecbFile = path.resolve(repoRoot, '..', 'shared', 'data', 'prices', 'ecb-eurofxref', 'eurofxref-hist-90d.xml');
const silent = { info() {}, warn() {}, error() {}, debug() {}, child() { return silent; } };

let stack: Stack;
let temporal: TemporalServer;
let worker: Worker;
let workerConnection: NativeConnection;
let running: Promise<void>;
let client: Client;

before(async () => {
  stack = await startStack({ demo: 'none' });
  temporal = await startTemporal({ ...stack.config, temporalAddress: process.env.TEMPORAL_ADDRESS }, silent);
  ({ worker, connection: workerConnection } = await createIngestWorker(temporal.address, 'default', { ch: stack.stores.ch.client }));
  running = worker.run();
  client = new Client({ connection: await Connection.connect({ address: temporal.address }), namespace: 'default' });
});
after(async () => {
  worker?.shutdown();
  await running?.catch(() => undefined);
  await workerConnection?.close();
  await client?.connection.close();
  await temporal?.stop();
  await stack?.close();
});

describe('fxRates workflow', () => {
  it('loads the ECB reference rates through an activity', async () => {
    const result = await client.workflow.execute(fxRates, {
      args: [{ location: ecbFile, batchId: 'ecb-test-90d' }],
      taskQueue: TASK_QUEUE,
      workflowId: workflowIds.fxRates(`test-${Date.now()}`),
    });
    assert.equal(result.rejected, 0);
    assert.equal(result.days.length, 61);
    const [row] = await chRows<{ n: string }>(stack.stores.ch.client, `SELECT toString(count()) AS n FROM holo.fx_rates FINAL WHERE source = 'ecb'`);
    assert.equal(Number(row!.n), result.loaded);
  });

  it('fails a malformed feed at once instead of retrying it', async () => {
    const bad = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'holo-feed-')), 'ecb.xml');
    fs.writeFileSync(bad, '<html>maintenance</html>');
    const started = Date.now();
    await assert.rejects(
      client.workflow.execute(fxRates, { args: [{ location: bad, batchId: 'ecb-bad' }], taskQueue: TASK_QUEUE, workflowId: workflowIds.fxRates(`bad-${Date.now()}`) }),
      (err: unknown) => err instanceof WorkflowFailedError && /no <Cube time/.test(String((err.cause as { cause?: { message?: string } } | undefined)?.cause?.message)),
    );
    assert.ok(Date.now() - started < 10_000, 'no retry backoff was spent on a non-retryable failure');
  });
});
