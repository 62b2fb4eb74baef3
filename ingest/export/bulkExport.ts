// Bulk export files under HOLO_DATA_DIR/exports: the catalogue per game, the latest prices, and
// the price history per game and month, each as gzip NDJSON, gzip CSV and Parquet. ClickHouse
// writes them itself (embedded chDB straight into the file; a server streams them here), so rows
// never pass through JavaScript except for the catalogue, which lives in PostgreSQL. A file is
// written into a scratch folder and renamed into place, so a download never sees half a file,
// and a data set is rewritten only when the stores' state it holds has changed (its stamp). Each
// version of a file lives in a folder named by its checksum (versionFolder).
import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type pg from 'pg';
import type { ClickHouseClient } from '@clickhouse/client';
import {
  bulkCatalogueFile,
  bulkCataloguePage,
  bulkCatalogueStamps,
  bulkFileFromParquet,
  bulkFileRows,
  bulkFilesAll,
  bulkLatestStamp,
  bulkParquetStream,
  bulkPriceMonths,
  recordBulkFile,
  writeBulkParquet,
} from '../../sql/bulk.js';
import { openSessionPool, type SessionPool } from '../../sql/stores/clickhouseSessions.js';

export const BULK_FORMATS = ['ndjson.gz', 'csv.gz', 'parquet'] as const;
export type BulkFormat = (typeof BULK_FORMATS)[number];
const CLICKHOUSE_FORMAT: Record<BulkFormat, 'JSONEachRow' | 'CSVWithNames' | 'Parquet'> = {
  'ndjson.gz': 'JSONEachRow',
  'csv.gz': 'CSVWithNames',
  parquet: 'Parquet',
};

export type BulkTarget = {
  dir: string;
  pool: pg.Pool;
  ch: ClickHouseClient;
  /** Embedded chDB's export sessions; undefined with a ClickHouse server. */
  sessions: SessionPool | undefined;
};

export type BulkDataset = {
  dataset: string;
  kind: 'catalogue' | 'prices' | 'latest';
  game: string | null;
  month: string | null;
  stamp: string;
};

export type BulkWriteResult = { dataset: string; rows: number; bytes: number };

/**
 * The data sets whose files are missing or hold an older state of the stores than now, in groups
 * written together: each catalogue and the latest prices alone, a game's months in one pass.
 */
export async function planBulkExports(t: Pick<BulkTarget, 'pool' | 'ch' | 'dir'>): Promise<BulkDataset[][]> {
  const [catalogues, latest, months, files] = await Promise.all([
    bulkCatalogueStamps(t.pool),
    bulkLatestStamp(t.ch, {}),
    bulkPriceMonths(t.ch, {}),
    bulkFilesAll(t.pool),
  ]);
  await sweep(t.dir, new Set(files.map((f) => versionFolder(f.sha256))));
  const wanted: BulkDataset[] = [
    ...catalogues.map((c) => ({ dataset: `catalogue-${c.game}`, kind: 'catalogue' as const, game: c.game, month: null, stamp: c.stamp })),
    ...(latest[0] && !latest[0].stamp.endsWith('/0')
      ? [{ dataset: 'latest-prices', kind: 'latest' as const, game: null, month: null, stamp: latest[0].stamp }]
      : []),
    ...months.map((m) => ({
      dataset: `prices-${m.game}-${m.month.slice(0, 7)}`,
      kind: 'prices' as const,
      game: m.game,
      month: m.month,
      stamp: m.stamp,
    })),
  ];
  const stampOf = new Map<string, string[]>();
  for (const f of files) stampOf.set(f.dataset, [...(stampOf.get(f.dataset) ?? []), f.source_stamp]);
  const stale = wanted.filter((d) => {
    const stamps = stampOf.get(d.dataset) ?? [];
    return stamps.length < BULK_FORMATS.length || stamps.some((s) => s !== d.stamp);
  });
  const monthsOf = new Map<string, BulkDataset[]>();
  for (const d of stale.filter((x) => x.kind === 'prices')) monthsOf.set(d.game!, [...(monthsOf.get(d.game!) ?? []), d]);
  return [...stale.filter((d) => d.kind !== 'prices').map((d) => [d]), ...monthsOf.values()];
}

/**
 * Where a file of this content lives: a folder named by its checksum, so a new version never
 * replaces the bytes a download (or a resume naming the old ETag) is reading; the record moves to
 * the new folder and the old one is swept later.
 */
export const versionFolder = (sha256: string) => sha256.slice(0, 16);

/**
 * Sweeps what is an hour old or more and no record names: scratch folders an interrupted run left
 * (a worker stopped mid-write) and versions a newer file replaced.
 */
async function sweep(dir: string, current: Set<string>): Promise<void> {
  const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isDirectory() || current.has(e.name) || !(e.name.startsWith('.tmp-') || /^[0-9a-f]{16}$/.test(e.name))) continue;
    const stat = await fsp.stat(path.join(dir, e.name)).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > 3_600_000) await fsp.rm(path.join(dir, e.name), { recursive: true, force: true });
  }
}

async function digest(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

let localConverter: SessionPool | undefined;
/** chDB for turning a file into the other formats: embedded mode's export sessions, else one of its own. */
function converter(t: BulkTarget): SessionPool {
  if (t.sessions) return t.sessions;
  localConverter ??= openSessionPool(path.join(t.dir, '.chdb'), 1, ["SET date_time_input_format = 'best_effort'"]);
  return localConverter;
}

/** The text formats from a data set's Parquet (chDB reads Parquet faster than anything); its row count. */
async function convertFromParquet(pool: SessionPool, scratch: string, dataset: string): Promise<number> {
  const source = path.join(scratch, `${dataset}.parquet`);
  for (const format of ['ndjson.gz', 'csv.gz'] as const) {
    const target = path.join(scratch, `${dataset}.${format}`);
    await pool.use((s) => bulkFileFromParquet(s, { source, target, target_format: CLICKHOUSE_FORMAT[format] }));
  }
  return pool.use((s) => bulkFileRows(s, { source }));
}

type QueryParams = Record<string, string | string[]>;

/**
 * A bulk query's result as one Parquet file (`out` may hold {_partition_id} with `byMonth`):
 * embedded chDB writes it itself; a server streams it here, nothing of it held in memory.
 */
async function writeParquet(
  t: BulkTarget,
  out: string,
  name: 'bulk_prices_months' | 'bulk_latest_prices',
  params: QueryParams,
  byMonth = false,
): Promise<void> {
  if (t.sessions) {
    await t.sessions.use((s) => writeBulkParquet(s, name, { ...params, target: out }, byMonth));
    return;
  }
  await pipeline(await bulkParquetStream(t.ch, name, params), fs.createWriteStream(out));
}

/**
 * A game's months of price history as Parquet, one file a month: embedded chDB in one pass over
 * the facts (a partitioned write), a server month by month.
 */
async function writeMonths(t: BulkTarget, scratch: string, months: BulkDataset[]): Promise<void> {
  const game = months[0]!.game!;
  const monthFile = (m: BulkDataset) => path.join(scratch, `${m.dataset}.parquet`);
  if (!t.sessions) {
    for (const m of months) await writeParquet(t, monthFile(m), 'bulk_prices_months', { game, months: [m.month!] });
    return;
  }
  const pattern = path.join(scratch, `prices-${game}-{_partition_id}.parquet`);
  await writeParquet(t, pattern, 'bulk_prices_months', { game, months: months.map((m) => m.month!) }, true);
  for (const m of months) {
    const written = pattern.replace('{_partition_id}', m.month!.slice(0, 7).replace('-', ''));
    if (fs.existsSync(written)) await fsp.rename(written, monthFile(m));
    // A month whose prices are all outliers has no partition: its own (empty) file says so.
    else await writeParquet(t, monthFile(m), 'bulk_prices_months', { game, months: [m.month!] });
  }
}

const CATALOGUE_PAGE = 5_000;
/** A game's catalogue from PostgreSQL, page by page into gzip NDJSON; then Parquet and CSV by chDB. */
async function writeCatalogue(
  t: BulkTarget,
  scratch: string,
  dataset: string,
  game: string,
  onPage: (rows: number) => void,
): Promise<number> {
  const ndjson = path.join(scratch, `${dataset}.ndjson.gz`);
  const gzip = zlib.createGzip({ level: 6 });
  const written = pipeline(gzip, fs.createWriteStream(ndjson));
  // A write that fails (a full disk) fails the export when awaited below, not the process now.
  written.catch(() => undefined);
  let rows = 0;
  try {
    for (let after = 0; ;) {
      const page = await bulkCataloguePage(t.pool, game, after, CATALOGUE_PAGE);
      if (page.length === 0) break;
      const text = page.map((r) => JSON.stringify({ ...r, external_ids: r.external_ids ?? {} })).join('\n') + '\n';
      // once() rejects when the stream fails instead of waiting for a drain that never comes.
      if (!gzip.write(text)) await once(gzip, 'drain');
      rows += page.length;
      after = page.at(-1)!.variant_id;
      onPage(rows);
    }
  } catch (err) {
    // A failed read or a stop asked for by onPage (a cancelled export) leaves no open file behind.
    gzip.destroy(err as Error);
    throw err;
  }
  gzip.end();
  await written;
  const chdb = converter(t);
  for (const format of ['parquet', 'csv.gz'] as const) {
    const target = path.join(scratch, `${dataset}.${format}`);
    await chdb.use((s) => bulkCatalogueFile(s, { source: ndjson, target, target_format: CLICKHOUSE_FORMAT[format] }));
  }
  return rows;
}

/** Writes a group's files (planBulkExports) and records them; `onProgress` hears each step. */
export async function writeBulkDatasets(
  t: BulkTarget,
  group: BulkDataset[],
  onProgress: (step: string) => void = () => undefined,
): Promise<BulkWriteResult[]> {
  await fsp.mkdir(t.dir, { recursive: true });
  const scratch = path.join(t.dir, `.tmp-${crypto.randomBytes(6).toString('hex')}`);
  await fsp.mkdir(scratch);
  try {
    const rowsOf = new Map<string, number>();
    const first = group[0]!;
    onProgress(`${first.dataset}${group.length > 1 ? ` and ${group.length - 1} more` : ''}: writing`);
    if (first.kind === 'catalogue') {
      rowsOf.set(
        first.dataset,
        await writeCatalogue(t, scratch, first.dataset, first.game!, (n) => onProgress(`${first.dataset}: ${n} rows`)),
      );
    } else if (first.kind === 'latest') {
      await writeParquet(t, path.join(scratch, `${first.dataset}.parquet`), 'bulk_latest_prices', {});
      rowsOf.set(first.dataset, await convertFromParquet(converter(t), scratch, first.dataset));
    } else {
      await writeMonths(t, scratch, group);
      for (const m of group) {
        rowsOf.set(m.dataset, await convertFromParquet(converter(t), scratch, m.dataset));
        onProgress(`${m.dataset}: converted`);
      }
    }
    const results: BulkWriteResult[] = [];
    for (const d of group) {
      const rows = rowsOf.get(d.dataset)!;
      let bytes = 0;
      for (const format of BULK_FORMATS) {
        const filename = `${d.dataset}.${format}`;
        const { sha256, bytes: size } = await digest(path.join(scratch, filename));
        const version = path.join(t.dir, versionFolder(sha256));
        await fsp.mkdir(version, { recursive: true });
        await fsp.rename(path.join(scratch, filename), path.join(version, filename));
        await recordBulkFile(t.pool, d.dataset, format, filename, d.kind, d.game, d.month, rows, size, sha256, d.stamp);
        bytes += size;
      }
      onProgress(`${d.dataset}: ${rows} rows, ${bytes} bytes`);
      results.push({ dataset: d.dataset, rows, bytes });
    }
    return results;
  } finally {
    await fsp.rm(scratch, { recursive: true, force: true });
  }
}
