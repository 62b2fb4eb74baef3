// The first start's demo load when the catalogue files are not where the configuration says: it
// loads nothing, says why, and does not mark the data directory as loaded, so the next start with
// the files in place loads the demo.
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadDemoDataIfEmpty } from '../ingest/demo/index.js';
import { repoRoot } from '../sql/runtime/paths.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
before(async () => {
  stack = await startStack({ fresh: true, env: { HOLO_SHARED_DATA_DIR: path.join(os.tmpdir(), 'holo-no-such-shared-data') } });
});
after(async () => {
  await stack?.close();
});

describe('demo load without the catalogue files', () => {
  it('says so, and loads the demo at the next start once they are there', async () => {
    assert.ok(stack.logLines.some((l) => l.includes('demo data: no catalogue found')));
    const marker = await stack.stores.pg.pool.query(`SELECT 1 FROM service_state WHERE key = 'demo_loaded_at'`);
    assert.equal(marker.rowCount, 0, 'not marked as loaded');
    assert.equal((await stack.json('/api/v2/stats')).body.cards, 0);

    const config = { ...stack.config, sharedDataDir: path.resolve(repoRoot, '..', 'shared', 'data') };
    assert.equal(await loadDemoDataIfEmpty(config, stack.stores, stack.server.deps.log), true);
    assert.ok((await stack.stores.pg.pool.query(`SELECT count(*)::int AS n FROM cards`)).rows[0].n > 100);
    assert.equal((await stack.stores.pg.pool.query(`SELECT 1 FROM service_state WHERE key = 'demo_loaded_at'`)).rowCount, 1);
  });
});
