// In-process ingestion comes up beside the API, not in front of it: with Temporal unreachable the
// API keeps serving and /api/health reports ingestion degraded with the failing step; once a
// Temporal server appears at the address, ingestion reaches "up" with its schedules in place.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../schemas/config.js';
import { silentLogger } from '../sql/runtime/log.js';
import { freePort } from '../sql/runtime/ports.js';
import { superviseIngestion, type Ingestion } from '../workflows/ingestion.js';
import { SCHEDULE_IDS } from '../workflows/schedules.js';
import { startTemporal, type TemporalServer } from '../workflows/temporalServer.js';
import { startStack, type Stack } from './support/stack.js';
import { until } from './support/until.js';

let stack: Stack;
let ingestion: Ingestion | undefined;
let temporal: TemporalServer | undefined;

// What `npm start` on the same machine holds: the default ports of the feed server, Temporal and
// its UI, the API and the portal. A stack must not need any of them.
const occupied: net.Server[] = [];

before(async () => {
  const defaults = loadConfig({});
  for (const port of [defaults.feedsPort, defaults.temporalPort, defaults.temporalUiPort, defaults.port, defaults.portalPort]) {
    const holder = net.createServer();
    // A port something else holds already is just as taken.
    await new Promise<void>((resolve) => holder.once('error', () => resolve()).listen(port, '127.0.0.1', () => resolve()));
    if (holder.listening) occupied.push(holder);
  }
  stack = await startStack({ demo: 'none' });
});
after(async () => {
  for (const holder of occupied) holder.close();
  await ingestion?.stop();
  await temporal?.stop();
  await stack?.close();
});

describe('ingestion supervision', () => {
  it('keeps the API serving while Temporal is down, then comes up with its schedules once it is there', async () => {
    const port = await freePort();
    const config = { ...stack.config, temporalAddress: `127.0.0.1:${port}` };
    ingestion = superviseIngestion(config, stack.stores, silentLogger(), { retry: { initialMs: 50, maxMs: 200 }, firstScrape: false });
    const supervised = ingestion;
    stack.server.deps.ingestion = () => supervised.status();

    await until('a failed attempt', () => ingestion!.status().state === 'degraded');
    const degraded = await stack.json('/api/health');
    assert.equal(degraded.status, 200);
    assert.equal(degraded.body.status, 'degraded');
    assert.equal(degraded.body.ingestion.state, 'degraded');
    assert.equal(degraded.body.ingestion.step, 'worker');
    assert.ok(degraded.body.ingestion.failures >= 1);
    assert.equal((await stack.json('/api/v2/games')).status, 200, 'the API answers while ingestion is down');

    // A Temporal server appears at the configured address: the retries find it.
    temporal = await startTemporal({ ...stack.config, temporalAddress: undefined }, silentLogger(), { port });
    await ingestion.ready;
    assert.equal(ingestion.status().state, 'up');
    assert.equal(ingestion.status().error, null);
    const healthy = await stack.json('/api/health');
    assert.equal(healthy.body.ingestion.state, 'up');
    assert.equal(healthy.body.status, 'ok');

    const client = new Client({ connection: await Connection.connect({ address: temporal.address }), namespace: 'default' });
    try {
      for (const id of Object.values(SCHEDULE_IDS)) {
        const description = await client.schedule.getHandle(id).describe();
        assert.equal(description.scheduleId, id);
      }
    } finally {
      await client.connection.close();
    }
  });

  it('reports "off" when ingestion does not run in the process', async () => {
    stack.server.deps.ingestion = null;
    const { body } = await stack.json('/api/health');
    assert.equal(body.ingestion.state, 'off');
  });
});
