// Bulk export (schemas/bulk.ts): the files' records in PostgreSQL, the catalogue pages, and the
// ClickHouse queries whose results become files.
import type { Readable } from 'node:stream';
import type { ClickHouseClient } from '@clickhouse/client';
import { z } from 'zod';
import { chQuery, pgQuery, pgStatement } from './typedQuery.js';
import { sqlFile } from './sqlFile.js';
import type { ChdbSession } from './stores/clickhouseSessions.js';

const BulkFileRow = z.object({
  dataset: z.string(),
  format: z.enum(['ndjson.gz', 'csv.gz', 'parquet']),
  filename: z.string(),
  kind: z.enum(['catalogue', 'prices', 'latest']),
  game: z.string().nullable(),
  month: z.string().nullable(),
  rows: z.number(),
  bytes: z.number(),
  sha256: z.string(),
  source_stamp: z.string(),
  updated_at: z.string(),
});
export type BulkFileRow = z.output<typeof BulkFileRow>;
/** Every bulk export file. */
export const bulkFilesAll = pgQuery<[], typeof BulkFileRow>('bulk/bulk_files_all', BulkFileRow);
/** One bulk export file by name. */
export const bulkFileByName = pgQuery<[filename: string], typeof BulkFileRow>('bulk/bulk_file_by_name', BulkFileRow);
/** Records a file now in place. */
export const recordBulkFile =
  pgStatement<
    [
      dataset: string,
      format: string,
      filename: string,
      kind: string,
      game: string | null,
      month: string | null,
      rows: number,
      bytes: number,
      sha256: string,
      sourceStamp: string,
    ]
  >('bulk/bulk_file_record');

const CatalogueRow = z.object({
  game: z.string(),
  set_id: z.number().int(),
  set_code: z.string(),
  set_name: z.string(),
  set_release_date: z.string().nullable(),
  card_id: z.number().int(),
  name: z.string(),
  collector_number: z.string(),
  rarity: z.string().nullable(),
  card_type: z.string().nullable(),
  printing_id: z.number().int(),
  language: z.string(),
  print_run: z.string(),
  variant_id: z.number().int(),
  finish: z.string(),
  variant_label: z.string(),
  external_ids: z.record(z.string(), z.string()).nullable(),
  updated_at: z.string(),
});
export type BulkCatalogueRow = z.output<typeof CatalogueRow>;
/** A page of a game's catalogue, one row per variant, after a variant id. */
export const bulkCataloguePage = pgQuery<[game: string, afterVariant: number, limit: number], typeof CatalogueRow>(
  'bulk/bulk_catalogue_page',
  CatalogueRow,
);
const Stamp = z.object({ game: z.string(), stamp: z.string() });
/** Per game: what its catalogue export would hold. */
export const bulkCatalogueStamps = pgQuery<[], typeof Stamp>('bulk/bulk_catalogue_stamps', Stamp);

const MonthRow = z.object({ game: z.string(), month: z.string(), stamp: z.string() });
/** The months of price history per game with their change stamps. */
export const bulkPriceMonths = chQuery<Record<string, never>, typeof MonthRow>('bulk/bulk_price_months', MonthRow);
/** What the latest-prices export holds. */
export const bulkLatestStamp = chQuery<Record<string, never>, z.ZodObject<{ stamp: z.ZodString }>>(
  'bulk/bulk_latest_stamp',
  z.object({ stamp: z.string() }),
);

/** The SELECT of a ClickHouse query file without its comments, for writing its result to a file. */
export const bulkSelect = (name: BulkQuery) =>
  sqlFile(`clickhouse/queries/bulk/${name}.sql`)
    .split('\n')
    .filter((l) => !l.trimStart().startsWith('--'))
    .join('\n')
    .trim();

type BulkQuery = 'bulk_prices_months' | 'bulk_latest_prices';
type BulkParams = Record<string, string | string[]>;
// chDB sessions (embedded mode's export pool) write files themselves: every path, format and array
// travels as a {name:Type} parameter, bound by chDB, never spliced into the statement.
const runBound = async (session: ChdbSession, text: string, params: BulkParams) => session.queryBindAsync(text, params, { format: 'TSV' });

// Why the two functions below put text around a query file's SELECT: what they add are clauses,
// not values. A {name:Type} parameter binds a value (a literal, or an identifier with the
// Identifier type), never a clause, so `PARTITION BY toYYYYMM(day)` (present or absent) and
// `FORMAT Parquet` cannot be parameters; every value in them (target path, file format, game,
// months) still is. The added text is fixed, chosen from a closed set (byMonth, the BulkQuery
// names), and nothing of a request or a file reaches it. A file per shape would keep each SELECT
// two or three times (partitioned, one file, a server's stream) and let the copies drift apart.

/**
 * A bulk query's result written by chDB as one Parquet file at `target`; with `byMonth`, one file a
 * month of `day` (target holds {_partition_id}: YYYYMM).
 */
export async function writeBulkParquet(
  session: ChdbSession,
  name: BulkQuery,
  params: BulkParams & { target: string },
  byMonth = false,
): Promise<void> {
  const into = `INSERT INTO FUNCTION file({target:String}, 'Parquet')${byMonth ? ' PARTITION BY toYYYYMM(day)' : ''}`;
  await runBound(session, `${into}\n${bulkSelect(name)}\nSETTINGS engine_file_truncate_on_insert = 1`, params);
}

/**
 * A bulk query's result as Parquet bytes from a ClickHouse server, streamed (never held whole):
 * exec sends the statement as it is, so the format is its FORMAT clause (see above).
 */
export async function bulkParquetStream(client: ClickHouseClient, name: BulkQuery, params: BulkParams): Promise<Readable> {
  return (await client.exec({ query: `${bulkSelect(name)}\nFORMAT Parquet`, query_params: params })).stream;
}

type FileFormat = 'JSONEachRow' | 'CSVWithNames' | 'Parquet';
/** A data set's Parquet file as `target` in a text format. */
export const bulkFileFromParquet = (session: ChdbSession, params: { source: string; target: string; target_format: FileFormat }) =>
  runBound(session, sqlFile('clickhouse/queries/bulk/bulk_file_from_parquet.sql'), params);
/** A catalogue's gzip NDJSON as `target` in another format. */
export const bulkCatalogueFile = (session: ChdbSession, params: { source: string; target: string; target_format: FileFormat }) =>
  runBound(session, sqlFile('clickhouse/queries/bulk/bulk_catalogue_file.sql'), params);
/** The rows of a Parquet file. */
export const bulkFileRows = async (session: ChdbSession, params: { source: string }): Promise<number> =>
  Number((await runBound(session, sqlFile('clickhouse/queries/bulk/bulk_file_rows.sql'), params)).text().trim());
