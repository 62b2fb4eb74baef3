// Inserts of rows already encoded, on either backend, and whether a client's ClickHouse is chDB in
// this process. Kept apart from clickhouse.ts, which opens chDB, so that the query helpers
// (typedQuery.ts) and everything importing them never load chDB's native addon: a worker thread
// that loads it (the upstream mirror's, through sql/demoMarket.ts) tears the process's chDB
// connections down when it exits, and the next query on the main thread faults inside chDB.
import { Readable } from 'node:stream';
import type { ClickHouseClient } from '@clickhouse/client';

type RawInsert = (params: {
  table: string;
  columns: readonly string[];
  values: Buffer;
  format: InsertFormat;
  settings?: Record<string, string | number>;
}) => Promise<unknown>;

/**
 * The encodings of the typed inserts (sql/typedQuery.ts): JSONEachRow (chInsert), TabSeparated
 * (chInsertTabSeparated: staged source rows, the catalogue copy; and the ingest benchmark's ceiling).
 */
export type InsertFormat = 'JSONEachRow' | 'TabSeparated';

// chDB's own insert hands a Buffer to the engine without copying it into a JS string and parses it
// on several threads; @clickhouse/client's insert over chDB first builds one big string (measured,
// 100,000 price points in JSONEachRow: 1.54x the CPU time of the Buffer path, which matches TSV's).
const chdbRawInserts = new WeakMap<ClickHouseClient, RawInsert>();

/** openClickHouse hands over chDB's own insert for the embedded client it made. */
export function registerRawInsert(client: ClickHouseClient, raw: RawInsert): void {
  chdbRawInserts.set(client, raw);
}

/**
 * Bulk insert of rows already encoded in `format` (one line per row). Settings apply to this
 * insert only. Application code inserts through the typed functions of sql/ (chInsert,
 * chInsertTabSeparated), not this: lint keeps this module inside sql/.
 */
export async function insertEncoded(
  client: ClickHouseClient,
  insert: { table: string; columns: readonly string[]; body: Buffer; format: InsertFormat; settings?: Record<string, string | number> },
): Promise<void> {
  if (insert.body.length === 0) return;
  const raw = chdbRawInserts.get(client);
  if (raw) {
    await raw({ table: insert.table, columns: insert.columns, values: insert.body, format: insert.format, settings: insert.settings });
    return;
  }
  await client.insert({
    table: insert.table,
    columns: [...insert.columns] as [string, ...string[]],
    values: Readable.from([insert.body], { objectMode: false }),
    format: insert.format,
    clickhouse_settings: insert.settings,
  });
}

/** A value as a TabSeparated field: backslash, tab and line breaks escaped. */
export function tsvField(value: string): string {
  return /[\\\t\n\r]/.test(value)
    ? value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'))
    : value;
}

/**
 * Whether the client's ClickHouse runs in this process (chDB), so its file() table function reads
 * this machine's files: a document written to a temporary file can be handed to its input formats.
 */
export function readsLocalFiles(client: ClickHouseClient): boolean {
  return chdbRawInserts.has(client);
}
