// Stacks built once per suite run. Starting a stack from nothing (initdb, every migration, the
// small demo's catalogue and 365 days of history) takes ~10 s; a copy of a data directory that
// went through the same start takes well under one. The suite runner names a folder for this
// run's templates (HOLO_TEST_TEMPLATES); the first stack that needs a kind of data directory has
// it built, once, by a child process (chDB binds one data directory per process, and the test's
// own stack needs its own), and every stack of that kind starts from a copy. A test that needs
// the first start itself says so (StackOptions.fresh), and outside the suite runner every stack
// starts from nothing, as before.
//
// A template is the data directory of a stack that started and stopped: the same code, the same
// migrations and the same demo load as a fresh stack, run in the child (`build` below). On a
// PostgreSQL server (DATABASE_URL) the database part is a template database the stack's own
// database is created from, PostgreSQL's own copy.
//
// Both passes of one `npm test` share a folder (HOLO_TEST_RUN_DIR, test/run.sh) for what a build
// computes that no store changes: the recognition features of the demo's pictures (~30 s of
// OpenCV), computed by pass 1's build and stored again by pass 2's (indexDemoPicturesOnce).
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import v8 from 'node:v8';
import pg from 'pg';
import { loadConfig, type Config } from '../../schemas/config.js';
import { createLogger } from '../../sql/runtime/log.js';
import { migrateClickHouse, migratePostgres } from '../../sql/stores/migrate.js';
import { openStores, type Stores } from '../../sql/stores/index.js';
import { ImageStore } from '../../sql/stores/images.js';
import { indexCardPictures } from '../../ingest/recognition/indexBuild.js';
import { recognitionDigests, recognitionEntriesAfter, upsertRecognitionFeatures } from '../../sql/recognition.js';
import { loadDemoDataIfEmpty } from '../../ingest/demo/index.js';
import { freePort } from '../../sql/runtime/ports.js';

const run = promisify(execFile);

/** What a data directory's stored state depends on: stacks that agree on these start from one template. */
export type TemplateKey = {
  demo: string;
  demoHistoryDays: string;
  sharedDataDir: string;
  nodeEnv: string;
  /** The PostgreSQL server's URL (its database part ignored), or null for embedded PostgreSQL. */
  postgresServer: string | null;
  /** The demo's card pictures indexed for recognition, as the ingestion worker's index workflow does. */
  recognitionIndex: boolean;
};

export type Template = { dir: string; database: string | null };

const BUILD_TIMEOUT_MS = 5 * 60_000;

/** This run's template folder, when the suite runner set one. */
export const templatesDir = (): string | undefined => process.env.HOLO_TEST_TEMPLATES || undefined;

/**
 * The template for `key` in this run's folder, built by a child process if no stack of the run
 * has needed it yet; stacks that ask while it is being built wait for it.
 */
export async function stackTemplate(folder: string, key: TemplateKey): Promise<Template> {
  const id = crypto
    .createHash('sha256')
    .update(folder + JSON.stringify(key))
    .digest('hex')
    .slice(0, 12);
  const dir = path.join(folder, `tpl-${id}`);
  const template: Template = { dir, database: key.postgresServer ? `holo_tpl_${id}` : null };
  const ready = path.join(folder, `tpl-${id}.ready`);
  const failed = path.join(folder, `tpl-${id}.failed`);
  const claimed = await fs.mkdir(path.join(folder, `tpl-${id}.lock`)).then(
    () => true,
    () => false,
  );
  if (claimed) {
    try {
      await run(process.execPath, [fileURLToPath(import.meta.url), 'build', dir, JSON.stringify(key), template.database ?? ''], {
        timeout: BUILD_TIMEOUT_MS,
        maxBuffer: 64 * 1024 * 1024,
      });
      await fs.writeFile(ready, '');
    } catch (err) {
      const e = err as { stderr?: string; message?: string };
      await fs.writeFile(failed, e.stderr || e.message || 'failed');
      throw new Error(`building the stack template failed: ${e.stderr || e.message}`);
    }
    return template;
  }
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  for (;;) {
    if (await exists(ready)) return template;
    const why = await fs.readFile(failed, 'utf8').catch(() => null);
    if (why !== null) throw new Error(`building the stack template failed: ${why}`);
    if (Date.now() > deadline) throw new Error(`the stack template ${dir} was not built within ${BUILD_TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A stack's data directory (and database, on a server) as a copy of the template. */
export async function copyTemplate(template: Template, dataDir: string, databaseUrl: string | undefined): Promise<void> {
  // cp -a keeps owners and modes: PostgreSQL runs as its own user when the suite runs as root,
  // and refuses a data directory it does not own or that others can read.
  await run('cp', ['-a', `${template.dir}/.`, dataDir]);
  if (template.database && databaseUrl) await createDatabase(databaseUrl, template.database);
}

/** Creates the database `databaseUrl` names, on its server: empty, or as a copy of `template`. */
export async function createDatabase(databaseUrl: string, template?: string): Promise<void> {
  const u = new URL(databaseUrl);
  const name = u.pathname.slice(1);
  u.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: u.toString() });
  await admin.connect();
  try {
    // Names are ours (holo_test_<hex>, holo_tpl_<hex>): identifiers quoted all the same.
    const from = template ? ` TEMPLATE ${pg.escapeIdentifier(template)}` : '';
    await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}${from}`);
  } finally {
    await admin.end();
  }
}

async function exists(p: string): Promise<boolean> {
  return fs.access(p).then(
    () => true,
    () => false,
  );
}

/** Every card picture the data directory holds, indexed for recognition. */
export async function indexDemoPictures(config: Config, stores: Stores): Promise<void> {
  const images = new ImageStore(path.join(config.dataDir, 'images'));
  await indexCardPictures(stores.pg.pool, images, await images.cardsWithOriginals());
}

type IndexRow = { card_id: number; cut: number; image_sha256: string; features: Buffer };

/**
 * The demo's pictures indexed, each picture's features computed once per run: a build finding the
 * rows an earlier build of the run saved stores those of the cards it has pictures of, so
 * indexCardPictures finds their digests (the picture's SHA-256 and FEATURES_VERSION) current and
 * computes only what they do not cover, such as a card whose picture is another. The features
 * depend on the picture and the method alone, not on the store; the rows go through the queries
 * indexing writes and the matcher reads with.
 */
async function indexDemoPicturesOnce(runDir: string, config: Config, stores: Stores): Promise<void> {
  const saved = path.join(runDir, 'recognition-features.v8');
  const earlier = await fs.readFile(saved).then(
    (bytes) => v8.deserialize(bytes) as IndexRow[],
    () => [],
  );
  const cards = await new ImageStore(path.join(config.dataDir, 'images')).cardsWithOriginals();
  const pictured = new Set(cards);
  for (const r of earlier)
    if (pictured.has(r.card_id)) await upsertRecognitionFeatures(stores.pg.pool, r.card_id, r.cut, r.image_sha256, r.features);
  await indexDemoPictures(config, stores);
  if (earlier.length) return;
  const digests = new Map((await recognitionDigests(stores.pg.pool, cards)).map((d) => [`${d.card_id}:${d.cut}`, d.image_sha256]));
  const rows: IndexRow[] = [];
  for (let page = await recognitionEntriesAfter(stores.pg.pool, 0, -1, 500); page.length;) {
    for (const e of page) rows.push({ ...e, image_sha256: digests.get(`${e.card_id}:${e.cut}`)! });
    const last = page.at(-1)!;
    page = await recognitionEntriesAfter(stores.pg.pool, last.card_id, last.cut, 500);
  }
  // Written whole, then renamed: a build reading it never sees half.
  await fs.writeFile(`${saved}.${process.pid}`, v8.serialize(rows));
  await fs.rename(`${saved}.${process.pid}`, saved);
}

/** The child: one stack's start (stores, migrations, demo) into `dir`, then stopped cleanly. */
async function build(dir: string, key: TemplateKey, database: string): Promise<void> {
  let databaseUrl: string | undefined;
  if (key.postgresServer) {
    const u = new URL(key.postgresServer);
    u.pathname = `/${database}`;
    databaseUrl = u.toString();
    await createDatabase(databaseUrl);
  }
  await fs.mkdir(dir, { recursive: true });
  await fs.chmod(dir, 0o755);
  const config = loadConfig({
    NODE_ENV: key.nodeEnv,
    HOLO_DATA_DIR: dir,
    HOLO_DEMO: key.demo,
    HOLO_DEMO_HISTORY_DAYS: key.demoHistoryDays,
    HOLO_SHARED_DATA_DIR: key.sharedDataDir,
    HOLO_EMBEDDED_PG_PORT: String(await freePort()),
    HOLO_REDIS_PREFIX: `tpl${crypto.randomBytes(4).toString('hex')}`,
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL,
    HOLO_LOG_LEVEL: 'error',
  });
  const log = createLogger('error', {}, (line) => process.stderr.write(`${line}\n`));
  const stores = await openStores(config, log);
  try {
    await migratePostgres(stores.pg, log);
    await migrateClickHouse(stores.ch, log);
    await loadDemoDataIfEmpty(config, stores, log);
    if (key.recognitionIndex) await indexDemoPicturesOnce(process.env.HOLO_TEST_RUN_DIR || path.dirname(dir), config, stores);
  } finally {
    await stores.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'build') {
  await build(process.argv[3]!, JSON.parse(process.argv[4]!) as TemplateKey, process.argv[5]!);
  // chDB's threads keep the process alive after its client closes.
  process.exit(0);
}
