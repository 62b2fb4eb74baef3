// Bulk export: the files the bulkExport workflow writes (catalogue per game, latest prices, daily
// prices per game and month; gzip NDJSON, gzip CSV, Parquet), listed with signed links by tier,
// downloaded by token with ranges and ETags, round-tripped into a fresh ClickHouse with the same
// counts and sums per month, and rewritten only where the stores changed.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { BulkListResponse } from '../schemas/bulk.js';
import { planBulkExports, writeBulkDatasets, type BulkTarget } from '../ingest/export/bulkExport.js';
import { loadPricePoints } from '../ingest/load/pricePoints.js';
import { signDownload } from '../api/bulk/downloads.js';
import { repoRoot } from '../sql/runtime/paths.js';
import { accountWithKey } from './support/accounts.js';
import { call } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';

const run = promisify(execFile);
type Json = any;
let stack: Stack;
let target: BulkTarget;
const keys: Record<string, string> = {};

async function exportAll(): Promise<string[]> {
  const plan = await planBulkExports(target);
  for (const group of plan) await writeBulkDatasets(target, group);
  return plan.flat().map((d) => d.dataset);
}

before(async () => {
  stack = await startStack();
  target = {
    dir: path.join(stack.config.dataDir, 'exports'),
    pool: stack.stores.pg.pool,
    ch: stack.stores.ch.client,
    sessions: stack.stores.ch.sessions?.exports,
  };
  for (const tier of ['free', 'starter', 'pro'] as const) keys[tier] = (await accountWithKey(stack, `bulk${tier}`, tier)).key;
  await exportAll();
});
after(async () => {
  await stack?.close();
});

const list = async (tier: string, query = '') => {
  const res = await call(stack.server, 'GET', `/api/v2/bulk${query}`, { headers: { Authorization: `Bearer ${keys[tier]}` } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return BulkListResponse.parse(res.body);
};
const fileOf = (listing: Json, dataset: string, format: string) =>
  listing.datasets.find((d: Json) => d.name === dataset).files.find((f: Json) => f.format === format);

describe('GET /api/v2/bulk', () => {
  it('lists every data set with its files, and links only what the tier includes', async () => {
    const pro = await list('pro');
    const kinds = new Set(pro.datasets.map((d) => d.kind));
    assert.deepEqual([...kinds].sort(), ['catalogue', 'latest', 'prices']);
    assert.deepEqual(
      pro.datasets
        .filter((d) => d.kind === 'catalogue')
        .map((d) => d.game ?? '')
        .sort((a, b) => a.localeCompare(b)),
      ['flesh-and-blood', 'lorcana', 'mtg', 'pokemon'],
    );
    for (const d of pro.datasets) {
      assert.deepEqual(d.files.map((f) => f.format).sort(), ['csv.gz', 'ndjson.gz', 'parquet']);
      for (const f of d.files) assert.ok(f.url && f.bytes > 0 && f.rows === d.rows && /^[0-9a-f]{64}$/.test(f.sha256));
    }
    // Every tier sees every data set (links only where its tier admits): each loop below has both kinds.
    const free = await list('free');
    assert.deepEqual(
      free.datasets.map((d) => d.name),
      pro.datasets.map((d) => d.name),
    );
    for (const d of free.datasets) for (const f of d.files) assert.equal(f.url !== null, d.kind === 'catalogue', `${d.name} for free`);
    const starter = await list('starter');
    assert.deepEqual(
      starter.datasets.map((d) => d.name),
      pro.datasets.map((d) => d.name),
    );
    for (const d of starter.datasets) for (const f of d.files) assert.equal(f.url !== null, d.kind !== 'prices', `${d.name} for starter`);
    const lorcanaPrices = (await list('pro', '?kind=prices&game=lorcana')).datasets;
    assert.ok(lorcanaPrices.length > 0, 'the demo has Lorcana price months');
    assert.deepEqual(
      lorcanaPrices.map((d) => d.name),
      pro.datasets.filter((d) => d.kind === 'prices' && d.game === 'lorcana').map((d) => d.name),
    );
    assert.equal((await call(stack.server, 'GET', '/api/v2/bulk')).status, 401);
  });

  it('describes each file truly: its rows, bytes and SHA-256 are the downloaded file’s', async () => {
    const pro = await list('pro');
    const file = fileOf(pro, 'catalogue-pokemon', 'ndjson.gz');
    const res = await fetch(stack.url + file.url);
    assert.equal(res.status, 200, `${file.url}: ${await res.clone().text()}`);
    assert.equal(res.headers.get('content-type'), 'application/gzip');
    assert.equal(res.headers.get('etag'), `"${file.sha256}"`);
    const body = Buffer.from(await res.arrayBuffer());
    assert.equal(body.length, file.bytes);
    assert.equal(crypto.createHash('sha256').update(body).digest('hex'), file.sha256);
    const lines = zlib.gunzipSync(body).toString('utf8').trim().split('\n');
    assert.equal(lines.length, file.rows);
    const { rows } = await stack.stores.pg.pool.query(
      `SELECT count(*)::int AS n FROM variants v JOIN printings p ON p.id = v.printing_id JOIN cards c ON c.id = p.card_id
       JOIN games g ON g.id = c.game_id WHERE g.slug = 'pokemon'`,
    );
    assert.equal(file.rows, rows[0].n);
    const first = JSON.parse(lines[0]!);
    assert.equal(first.game, 'pokemon');
    assert.match(first.external_ids.pokemontcg_io, /^[a-z0-9.]+-/);
  });
});

describe('GET /dl/{token}/{filename}', () => {
  it('resumes with Range, answers 304 to its ETag, and HEAD', async () => {
    const file = fileOf(await list('pro'), 'latest-prices', 'parquet');
    const whole = Buffer.from(await (await fetch(stack.url + file.url)).arrayBuffer());
    const part = await fetch(stack.url + file.url, { headers: { Range: 'bytes=100-1099' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), `bytes 100-1099/${file.bytes}`);
    assert.deepEqual(Buffer.from(await part.arrayBuffer()), whole.subarray(100, 1100));
    const rest = await fetch(stack.url + file.url, { headers: { Range: `bytes=${file.bytes - 10}-`, 'If-Range': `"${file.sha256}"` } });
    assert.equal(rest.status, 206);
    assert.deepEqual(Buffer.from(await rest.arrayBuffer()), whole.subarray(file.bytes - 10));
    // An If-Range naming another version gets the whole file.
    const stale = await fetch(stack.url + file.url, { headers: { Range: 'bytes=0-9', 'If-Range': '"0000"' } });
    assert.equal(stale.status, 200);
    await stale.arrayBuffer();
    // (fetch sends Cache-Control: no-cache with a conditional request unless told otherwise, as its spec says.)
    const revalidate = { 'If-None-Match': `"${file.sha256}"`, 'Cache-Control': 'max-age=0' };
    assert.equal((await fetch(stack.url + file.url, { headers: revalidate })).status, 304);
    assert.equal((await fetch(stack.url + file.url, { headers: { Range: `bytes=${file.bytes + 5}-` } })).status, 416);
    const head = await fetch(stack.url + file.url, { method: 'HEAD' });
    assert.equal(head.headers.get('content-length'), String(file.bytes));
  });

  it('refuses a changed, expired or misnamed link', async () => {
    const file = fileOf(await list('pro'), 'latest-prices', 'csv.gz');
    const [, , token, filename] = (file.url as string).split('/');
    const tampered = `${token!.slice(0, -2)}${token!.endsWith('AA') ? 'BB' : 'AA'}`;
    assert.equal((await fetch(`${stack.url}/dl/${tampered}/${filename}`)).status, 403);
    const other = fileOf(await list('pro'), 'latest-prices', 'parquet').filename;
    assert.equal((await fetch(`${stack.url}/dl/${token}/${other}`)).status, 403, 'a link names one file');
    const expired = await signDownload(stack.server.deps.tokens, filename!, Math.floor(Date.now() / 1000) - 1);
    const res = await fetch(`${stack.url}/dl/${expired}/${filename}`);
    assert.equal(res.status, 403);
    assert.match(((await res.json()) as { detail: string }).detail, /expired/);
    const unknown = await signDownload(stack.server.deps.tokens, 'nothing-here.parquet', Math.floor(Date.now() / 1000) + 60);
    assert.equal((await fetch(`${stack.url}/dl/${unknown}/nothing-here.parquet`)).status, 404);
    assert.equal((await fetch(`${stack.url}/dl/short/${filename}`)).status, 422);
  });
});

describe('the exported history', () => {
  it('round-trips into a fresh ClickHouse with identical counts and sums per month', async () => {
    const pro = await list('pro', '?kind=prices');
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'holo-roundtrip-'));
    try {
      const files: string[] = [];
      for (const d of pro.datasets) {
        const f = d.files.find((x) => x.format === 'parquet')!;
        const out = path.join(scratch, f.filename);
        fs.writeFileSync(out, Buffer.from(await (await fetch(stack.url + f.url)).arrayBuffer()));
        files.push(out);
      }
      // A fresh chDB in its own process (one data directory per process): a new table, loaded from the files.
      const script = `
        import { Session } from 'chdb';
        const s = new Session(${JSON.stringify(path.join(scratch, 'chdb'))});
        s.query("CREATE TABLE history (day Date, card_id UInt32, variant_id UInt32, region String, source String, price_type String, grading_company String, grade String, currency String, amount Decimal(18, 4), observation_id String) ENGINE = MergeTree ORDER BY (card_id, day)");
        for (const f of ${JSON.stringify(files)}) s.query("INSERT INTO history SELECT * FROM file('" + f + "', 'Parquet')");
        console.log(s.query("SELECT toString(toStartOfMonth(day)) AS month, count() AS n, toString(sum(amount)) AS total, uniqExact(card_id) AS cards FROM history GROUP BY month ORDER BY month", 'JSONEachRow'));
      `;
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 });
      const loaded = stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const rs = await stack.stores.ch.client.query({
        query: `SELECT toString(toStartOfMonth(as_of)) AS month, toString(count()) AS n, toString(sum(amount)) AS total, toString(uniqExact(card_id)) AS cards
                FROM holo.price_points FINAL WHERE NOT is_outlier GROUP BY month ORDER BY month`,
        format: 'JSONEachRow',
      });
      const source = await rs.json<{ month: string; n: string; total: string; cards: string }>();
      assert.ok(source.length >= 12, 'a year of demo history');
      assert.deepEqual(
        loaded.map((r) => [r.month, String(r.n), r.total, String(r.cards)]),
        source.map((r) => [r.month, r.n, r.total, r.cards]),
      );
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('sweeps scratch folders an interrupted run left and replaced versions, once they are an hour old', async () => {
    const old = path.join(target.dir, '.tmp-interrupted');
    const fresh = path.join(target.dir, '.tmp-running');
    const replaced = path.join(target.dir, '0123456789abcdef');
    for (const dir of [old, fresh, replaced]) fs.mkdirSync(dir, { recursive: true });
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    for (const dir of [old, replaced]) fs.utimesSync(dir, twoHoursAgo, twoHoursAgo);
    // A current version, however old its folder, stays.
    const current = fileOf(await list('pro'), 'catalogue-lorcana', 'parquet');
    const currentDir = path.join(target.dir, current.sha256.slice(0, 16));
    fs.utimesSync(currentDir, twoHoursAgo, twoHoursAgo);
    await planBulkExports(target);
    assert.equal(fs.existsSync(old), false);
    assert.equal(fs.existsSync(replaced), false);
    assert.equal(fs.existsSync(fresh), true, 'a folder a running export may be writing stays');
    assert.equal(fs.existsSync(currentDir), true, 'a version a record names stays');
    assert.equal((await fetch(stack.url + current.url)).status, 200);
    fs.rmSync(fresh, { recursive: true });
  });

  it('rewrites only the month that new prices landed in, and the latest prices', async () => {
    assert.deepEqual(await planBulkExports(target), [], 'all files are up to date');
    const [row] = (
      await stack.stores.pg.pool.query(
        `SELECT l.variant_id, p.card_id, g.slug AS game, l.region, l.source, l.price_type, l.currency, (l.amount + 1)::text AS amount
         FROM variant_prices_latest l JOIN variants v ON v.id = l.variant_id JOIN printings p ON p.id = v.printing_id
         JOIN cards c ON c.id = p.card_id JOIN games g ON g.id = c.game_id WHERE g.slug = 'lorcana' AND l.grading_company = 'raw' LIMIT 1`,
      )
    ).rows;
    const today = new Date().toISOString().slice(0, 10);
    await loadPricePoints(stack.loadTargets(), [{ ...row, grading_company: 'raw', grade: '', as_of: today, is_outlier: false }], {
      id: 'bulk-test',
      ingestedAt: new Date(),
    });
    const before = new Map((await list('pro')).datasets.map((d) => [d.name, d.files[0]!.sha256]));
    const written = await exportAll();
    assert.deepEqual(written.sort(), ['latest-prices', `prices-lorcana-${today.slice(0, 7)}`]);
    const afterwards = new Map((await list('pro')).datasets.map((d) => [d.name, d.files[0]!.sha256]));
    for (const [name, sha] of before) if (!written.includes(name)) assert.equal(afterwards.get(name), sha, `${name} untouched`);
    // The replaced version is still there for downloads that began before (swept after an hour).
    const month = `prices-lorcana-${today.slice(0, 7)}`;
    const replacedSha = before.get(month)!;
    assert.notEqual(afterwards.get(month), replacedSha);
    assert.equal(fs.readdirSync(target.dir).includes(replacedSha.slice(0, 16)), true);
  });
});
