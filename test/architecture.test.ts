// The architecture checks of `npm run lint` catch what they claim to: a tree with a wrong-way
// import, an import cycle, workflow code importing an activity's implementation, a worker
// thread whose imports reach chDB, a sub-layer import against the layout (README, Layout), a route
// file imported by another, a route file reaching for the cache (an import, or a cache.json call),
// the edge's errors imported by a service, encoded rows inserted outside sql/, and a query file
// outside its module's folder fails with the named rule, and the same checks pass on the
// repository itself.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { repoRoot } from '../sql/runtime/paths.js';

const run = promisify(execFile);
const bin = (name: string) => path.join(repoRoot, 'node_modules', '.bin', name);

/** Runs a checker in `cwd`; its exit status and everything it printed. */
async function check(cwd: string, command: string, args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

const layersCheck = (cwd: string, folders: string[]) =>
  check(cwd, bin('depcruise'), ['--config', path.join(repoRoot, '.dependency-cruiser.cjs'), ...folders]);

describe('architecture checks', () => {
  let tree: string;

  before(async () => {
    tree = await fs.mkdtemp(path.join(os.tmpdir(), 'holo-layers-'));
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }),
      'package.json': JSON.stringify({ type: 'module' }),
      'schemas/contract.ts': 'export const LIMIT = 10;\n',
      'api/deps.ts': "import { LIMIT } from '../schemas/contract.js';\nexport const deps = { limit: LIMIT };\n",
      // A store module reaching up into the HTTP edge.
      'sql/stores/wrongWay.ts': "import { deps } from '../../api/deps.js';\nexport const limit = deps.limit;\n",
      'ingest/a.ts': "import { b } from './b.js';\nexport const a = () => b();\n",
      'ingest/b.ts': "import { a } from './a.js';\nexport const b = (): unknown => a;\n",
      // A worker thread's entry reaching chDB through a query helper, as the mirror's thread once did.
      'ingest/demoMarket/feedServerThread.ts': "import { rows } from '../../sql/helper.js';\nexport const served = rows;\n",
      'sql/helper.ts': "import { Session } from 'chdb';\nexport const rows = (): unknown => Session;\n",
      // Sub-layers, each broken once: runtime reaching a store, Stripe's client reaching a query
      // module, a store reaching a query module, an engine reaching a loader, a service reaching a route file.
      'sql/stores/db.ts': 'export const db = { query: async () => [] };\n',
      'sql/accounts.ts': "import { db } from './stores/db.js';\nexport const accountById = (_id: number) => db.query();\n",
      'sql/runtime/log.ts': "import { db } from '../stores/db.js';\nexport const log = () => db;\n",
      'sql/external/stripe.ts': "import { accountById } from '../accounts.js';\nexport const pay = () => accountById(1);\n",
      'sql/stores/images.ts': "import { accountById } from '../accounts.js';\nexport const owner = () => accountById(1);\n",
      'ingest/load/pricePoints.ts': 'export const loadPrices = async () => 0;\n',
      'ingest/recognition/matcher.ts': "import { loadPrices } from '../load/pricePoints.js';\nexport const match = () => loadPrices();\n",
      'api/routes/listings.ts': 'export const listingRoutes = () => [];\n',
      'api/marketplace/listings.ts':
        "import { listingRoutes } from '../routes/listings.js';\nexport const listings = () => listingRoutes();\n",
      // A route file used as a library by another, one reaching for the cache (an import, and a
      // call with its own key and TTL), a service importing the edge's errors, a loader inserting
      // encoded rows itself. The route layer importing the errors, and sql/ the inserts, is fine.
      'api/routes/offers.ts': "import { listingRoutes } from './listings.js';\nexport const offerRoutes = () => listingRoutes();\n",
      'api/cache.ts': 'export const createCache = () => ({ json: async (_k: string, _ttl: number, load: () => unknown) => load() });\n',
      'api/routes/prices.ts':
        "import { createCache } from '../cache.js';\nexport const prices = (deps = { cache: createCache() }) =>\n  deps.cache.json('prices', 120, async () => []);\n",
      'api/http/errors.ts': 'export class ValidationError extends Error {}\n',
      'api/routes/decks.ts': "import { ValidationError } from '../http/errors.js';\nexport const refuse = () => new ValidationError();\n",
      'api/market/priceLists.ts':
        "import { ValidationError } from '../http/errors.js';\nexport const refuse = () => new ValidationError();\n",
      'sql/stores/clickhouseInserts.ts': 'export const insertEncoded = async (_body: string) => undefined;\n',
      'sql/staging.ts':
        "import { insertEncoded } from './stores/clickhouseInserts.js';\nexport const stageRows = () => insertEncoded('');\n",
      'ingest/load/staged.ts':
        "import { insertEncoded } from '../../sql/stores/clickhouseInserts.js';\nexport const stage = () => insertEncoded('a\\tb');\n",
      // Query files: one left flat, one of another module named, one no module names.
      'sql/postgres/queries/flat_query.sql': 'SELECT 1\n',
      'sql/postgres/queries/accounts/account_by_id.sql': 'SELECT 1\n',
      'sql/postgres/queries/accounts/account_orphan.sql': 'SELECT 1\n',
      'sql/postgres/queries/wishlist/wishlist_of.sql': 'SELECT 1\n',
      'sql/wishlist.ts': "export const names = ['wishlist/wishlist_of', 'accounts/account_by_id'];\n",
      'workflows/activities.ts': 'export const createActivities = () => ({ work: async () => 1 });\n',
      'workflows/workflows.ts':
        "import { createActivities } from './activities.js';\nexport async function flow(): Promise<number> {\n  return createActivities().work();\n}\n",
    };
    for (const [name, text] of Object.entries(files)) {
      await fs.mkdir(path.dirname(path.join(tree, name)), { recursive: true });
      await fs.writeFile(path.join(tree, name), text);
    }
    await fs.symlink(path.join(repoRoot, 'node_modules'), path.join(tree, 'node_modules'));
    // oxlint reads overrides relative to its configuration file: the tree gets the repository's own.
    await fs.copyFile(path.join(repoRoot, '.oxlintrc.json'), path.join(tree, '.oxlintrc.json'));
  });

  after(async () => {
    await fs.rm(tree, { recursive: true, force: true });
  });

  it('fails on a wrong-way import, naming the layer rule', async () => {
    const { code, output } = await layersCheck(tree, ['sql', 'api', 'schemas']);
    assert.notEqual(code, 0, output);
    assert.match(output, /sql-imports-only-below: sql\/stores\/wrongWay\.ts → api\/deps\.ts/);
  });

  it('fails on an import cycle', async () => {
    const { code, output } = await layersCheck(tree, ['ingest']);
    assert.notEqual(code, 0, output);
    assert.match(output, /no-cycles: ingest\/a\.ts/);
  });

  it("fails when a worker thread's imports reach chDB", async () => {
    const { code, output } = await layersCheck(tree, ['ingest', 'sql']);
    assert.notEqual(code, 0, output);
    assert.match(output, /threads-without-chdb: ingest\/demoMarket\/feedServerThread\.ts → \S*node_modules\/chdb\//);
  });

  for (const [rule, violation] of [
    ['sql-runtime-imports-only-runtime', 'sql/runtime/log.ts → sql/stores/db.ts'],
    ['sql-external-imports-only-runtime', 'sql/external/stripe.ts → sql/accounts.ts'],
    ['sql-stores-import-no-query-module', 'sql/stores/images.ts → sql/accounts.ts'],
    ['ingest-engines-import-no-write-path', 'ingest/recognition/matcher.ts → ingest/load/pricePoints.ts'],
    ['api-routes-imported-only-by-the-app', 'api/marketplace/listings.ts → api/routes/listings.ts'],
    ['api-routes-imported-only-by-the-app', 'api/routes/offers.ts → api/routes/listings.ts'],
    ['api-routes-import-no-cache', 'api/routes/prices.ts → api/cache.ts'],
    ['http-errors-only-at-the-edge', 'api/market/priceLists.ts → api/http/errors.ts'],
    ['clickhouse-inserts-only-in-sql', 'ingest/load/staged.ts → sql/stores/clickhouseInserts.ts'],
  ]) {
    it(`fails on a sub-layer import against the layout, naming ${rule}`, async () => {
      const { code, output } = await layersCheck(tree, ['sql', 'ingest', 'api']);
      assert.notEqual(code, 0, output);
      assert.ok(output.includes(`${rule}: ${violation}`), output);
    });
  }

  it('allows the route layer the edge errors and sql/ the raw inserts', async () => {
    const { output } = await layersCheck(tree, ['sql', 'ingest', 'api']);
    assert.ok(output.includes('http-errors-only-at-the-edge: api/market/priceLists.ts'), output);
    assert.ok(!output.includes('api/routes/decks.ts →'), output);
    assert.ok(!output.includes('sql/staging.ts →'), output);
  });

  it('fails on a route file that calls the cache itself, naming route-files-declare-their-cache', async () => {
    const { code, output } = await check(tree, process.execPath, [path.join(repoRoot, 'test', 'support', 'routeLayout.mjs'), tree]);
    assert.notEqual(code, 0, output);
    assert.match(output, /route-files-declare-their-cache: api\/routes\/prices\.ts:3: calls cache\.json/);
    assert.doesNotMatch(output, /offers|listings|decks/);
  });

  it("fails on a query file outside its module, one naming another module's file, and one no module names", async () => {
    const { code, output } = await check(tree, process.execPath, [path.join(repoRoot, 'test', 'support', 'queryLayout.mjs'), tree]);
    assert.notEqual(code, 0, output);
    assert.match(output, /query-file-in-its-module-folder: sql\/postgres\/queries\/flat_query\.sql/);
    assert.match(output, /query-module-names-only-its-own-files: sql\/wishlist\.ts: names accounts\/account_by_id/);
    assert.match(output, /query-file-named-by-its-module: accounts\/account_orphan\.sql/);
    assert.doesNotMatch(output, /wishlist_of/);
  });

  it('fails when workflow code imports an activity implementation instead of its types', async () => {
    const { code, output } = await check(tree, bin('oxlint'), ['workflows']);
    assert.notEqual(code, 0, output);
    assert.match(output, /no-restricted-imports/);
    assert.match(output, /\.\/activities\.js/);
  });

  it('passes on the repository itself', async () => {
    const { code, output } = await layersCheck(repoRoot, ['api', 'ingest', 'workflows', 'schemas', 'sql', 'test']);
    assert.equal(code, 0, output);
  });

  it("passes the route layout check on the repository's own route files", async () => {
    const { code, output } = await check(repoRoot, process.execPath, [path.join(repoRoot, 'test', 'support', 'routeLayout.mjs'), repoRoot]);
    assert.equal(code, 0, output);
  });

  it("passes the query layout check on the repository's own query files", async () => {
    const { code, output } = await check(repoRoot, process.execPath, [path.join(repoRoot, 'test', 'support', 'queryLayout.mjs'), repoRoot]);
    assert.equal(code, 0, output);
  });
});
