// ClickHouse: CLICKHOUSE_URL when set, else chDB in-process on HOLO_DATA_DIR/clickhouse,
// both behind the same @clickhouse/client API and the same SQL.
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';
import type { Config } from '../../schemas/config.js';
import type { Logger } from '../runtime/log.js';
import { redactUrl } from './postgres.js';
import { openSessionPool, type SessionPool } from './clickhouseSessions.js';
import { readerSessionStatements } from '../clickhouseAccess.js';

export type ClickHouseStore = {
  client: ClickHouseClient;
  kind: 'external' | 'embedded';
  database: string;
  cluster: string | undefined;
  /**
   * Embedded mode's sessions of their own (clickhouseSessions.ts): `readers` for data teams, under
   * readonly and the reader limits; `exports` for streamed bulk exports. Undefined on a server,
   * where data teams connect as its reader user.
   */
  sessions: { readers: SessionPool; exports: SessionPool } | undefined;
  /** True once close() was called: reads then fail fast as unavailable. */
  closed(): boolean;
  close(): Promise<void>;
};

export const CLICKHOUSE_DATABASE = 'holo';

type RawInsert = (params: {
  table: string;
  columns: readonly string[];
  values: Buffer;
  format: InsertFormat;
  settings?: Record<string, string | number>;
}) => Promise<unknown>;

/** JSONEachRow: the one encoding of the application's writes (sql/typedQuery.ts chInsert); TabSeparated: the ingest benchmark's ceiling. */
export type InsertFormat = 'JSONEachRow' | 'TabSeparated';

// chDB's own insert hands a Buffer to the engine without copying it into a JS string and parses it
// on several threads; @clickhouse/client's insert over chDB first builds one big string (measured,
// 100,000 price points in JSONEachRow: 1.54x the CPU time of the Buffer path, which matches TSV's).
const chdbRawInserts = new WeakMap<ClickHouseClient, RawInsert>();

/**
 * Bulk insert of rows already encoded in `format` (one line per row). Settings apply to this
 * insert only. Application code inserts through chInsert's typed functions, not this.
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

/**
 * Rows already encoded as TabSeparated (fields escaped with {@link tsvField}). Still used by the
 * staged ingestion's source rows and catalogue copy (ingest/load/staged.ts, catalogueCopy.ts),
 * which came after the typed inserts: to be moved to chInsert like the others.
 */
export const insertTabSeparated = (
  client: ClickHouseClient,
  insert: { table: string; columns: readonly string[]; body: Buffer; settings?: Record<string, string | number> },
): Promise<void> => insertEncoded(client, { ...insert, format: 'TabSeparated' });

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

export async function openClickHouse(config: Config, log: Logger): Promise<ClickHouseStore> {
  const settings = {
    // Exactness of Decimal and 64-bit values through JSON: they arrive as strings.
    output_format_json_quote_64bit_integers: 1,
    output_format_json_quote_decimals: 1,
    date_time_input_format: 'best_effort',
  } as const;
  let client: ClickHouseClient;
  let kind: ClickHouseStore['kind'];
  let sessions: ClickHouseStore['sessions'];
  if (config.clickhouseUrl) {
    client = createClient({ url: config.clickhouseUrl, clickhouse_settings: settings, request_timeout: 30_000 });
    kind = 'external';
    log.info('clickhouse: external server', { url: redactUrl(config.clickhouseUrl) });
  } else {
    const dir = path.join(config.dataDir, 'clickhouse');
    await fs.mkdir(dir, { recursive: true });
    // chdb/connection implements @clickhouse/client's Connection; the two packages ship their own
    // copies of the type declarations, hence the cast.
    const chdbConnection = createChdbConnection({ path: dir });
    const connection = chdbConnection as unknown as NonNullable<Parameters<typeof createClient>[0]>['connection'];
    client = createClient({ connection, clickhouse_settings: settings });
    chdbRawInserts.set(client, (params) => chdbConnection.chdb.rawInsert(params));
    kind = 'embedded';
    sessions = {
      readers: openSessionPool(dir, 2, [`USE ${CLICKHOUSE_DATABASE}`, ...readerSessionStatements()]),
      exports: openSessionPool(dir, 2, [`USE ${CLICKHOUSE_DATABASE}`, "SET date_time_input_format = 'best_effort'"]),
    };
    log.info('clickhouse: embedded chDB', { dir });
  }
  await client.command({
    query: `CREATE DATABASE IF NOT EXISTS ${CLICKHOUSE_DATABASE}${config.clickhouseCluster ? ` ON CLUSTER ${config.clickhouseCluster}` : ''}`,
  });
  let closed = false;
  return {
    client,
    kind,
    database: CLICKHOUSE_DATABASE,
    cluster: config.clickhouseCluster,
    sessions,
    closed: () => closed,
    close: async () => {
      if (closed) return;
      closed = true;
      sessions?.readers.close();
      sessions?.exports.close();
      await client.close();
    },
  };
}
