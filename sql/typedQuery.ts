// One typed function per query file: the SQL stays in sql/<store>/queries/<name>.sql, where data
// teams and reviewers read it, and its function binds the parameters and parses every row with a
// zod schema, converting what travels as text (64-bit integers, decimals) into what the code uses.
import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import type pg from 'pg';
import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { z } from 'zod';
import { sqlFile } from './sqlFile.js';
import type { Analytics } from './stores/analytics.js';
import type { Db } from './stores/db.js';
import { insertEncoded, tsvField } from './stores/clickhouseInserts.js';
import { isStalePreparedStatement } from './stores/unavailable.js';

/** Anything that runs PostgreSQL statements: the app's Db (or a transaction of it), a pool or a client. */
export type PgRunner = Db | pg.Pool | pg.PoolClient;

async function pgRows(runner: PgRunner, text: string, params: readonly unknown[], prepared?: string): Promise<unknown[]> {
  if ('transaction' in runner) return runner.query(text, [...params], prepared);
  const values = [...params];
  try {
    return (await runner.query(prepared ? { name: prepared, text, values } : { text, values })).rows;
  } catch (err) {
    // On a pool the failed connection is already dropped (pg-pool releases it with the error):
    // asked once more, unnamed. A client (a transaction) cannot: its caller rolls back.
    if (!prepared || 'release' in runner || !isStalePreparedStatement(err)) throw err;
    return (await runner.query({ text, values })).rows;
  }
}

/** The query files run as prepared statements (see pgQuery); typed-queries checks each is fit. */
export const PREPARED_QUERY_FILES = new Set<string>();

/**
 * A PostgreSQL query file (sql/postgres/queries/<name>.sql): positional parameters in, parsed rows out.
 *
 * `prepared`: run as a named prepared statement, parsed and planned once per pooled connection
 * instead of on every call, for the hot point lookups by a card's or variant's id whose plan does
 * not depend on the values (planning cost more than running: 0.48 ms against 0.23 ms for a card's
 * precomputed answers; prepared, its throughput doubled and the uncached v2 card detail went from
 * 906 to 2,266 req/s). Not for a file whose best plan depends on its values (optional filters
 * `$n IS NULL OR …`, LIKE on a parameter, a caller's OFFSET): after five runs PostgreSQL may keep
 * one generic plan for the connection, 10–40× slower for some values; nor for `*` in the select
 * list, which a migration adding a column would turn into a plan error. typed-queries enforces
 * both. The name is the text's hash: within PostgreSQL's 63 characters, one text one name.
 */
export function pgQuery<Params extends readonly unknown[], Row extends z.ZodType>(
  name: string,
  row: Row,
  opts: { prepared?: boolean } = {},
) {
  const text = sqlFile(`postgres/queries/${name}.sql`);
  const prepared = opts.prepared ? `holo_${createHash('sha256').update(text).digest('hex').slice(0, 24)}` : undefined;
  if (opts.prepared) PREPARED_QUERY_FILES.add(name);
  return async (db: PgRunner, ...params: Params): Promise<z.output<Row>[]> =>
    (await pgRows(db, text, params, prepared)).map((r) => row.parse(r));
}

/**
 * A PostgreSQL query file with markers (a block comment holding a name) that a compiler in this layer fills with SQL it
 * generated from a parsed request (fixed text and $n placeholders only; every value is a parameter).
 */
export function pgComposedQuery<Row extends z.ZodType>(name: string, row: Row) {
  const text = sqlFile(`postgres/queries/${name}.sql`);
  return async (db: PgRunner, fragments: Record<string, string>, params: readonly unknown[]): Promise<z.output<Row>[]> => {
    const composed = text.replace(/\/\*(\w+)\*\//g, (marker, key: string) => {
      const fragment = fragments[key];
      if (fragment === undefined) throw new Error(`${name}.sql: no fragment for ${marker}`);
      return fragment;
    });
    return (await pgRows(db, composed, params)).map((r) => row.parse(r));
  };
}

/** A PostgreSQL statement file that returns no rows (an INSERT, UPDATE or DELETE without RETURNING). */
export function pgStatement<Params extends readonly unknown[]>(name: string) {
  const text = sqlFile(`postgres/queries/${name}.sql`);
  return async (db: PgRunner, ...params: Params): Promise<void> => {
    await pgRows(db, text, params);
  };
}

/**
 * A PostgreSQL COPY … TO STDOUT file: its rows as the bytes PostgreSQL writes (text format), never
 * parsed into objects, for another engine's input format.
 */
export function pgCopyOut(name: string) {
  const text = sqlFile(`postgres/queries/${name}.sql`);
  return async (client: pg.PoolClient): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    for await (const chunk of client.query(copyTo(text))) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
}

/** A PostgreSQL COPY … FROM STDIN file: rows in its text format (TabSeparated) sent as they are. */
export function pgCopyIn(name: string) {
  const text = sqlFile(`postgres/queries/${name}.sql`);
  return async (client: pg.PoolClient, body: Buffer | string): Promise<void> => {
    if (body.length === 0) return;
    await pipeline(Readable.from([body]), client.query(copyFrom(text)));
  };
}

/** What runs ClickHouse reads: the API's Analytics (read-only, unavailable-aware) or a client (ingestion, activities). */
export type ChRunner = Analytics | ClickHouseClient;

async function chRows(runner: ChRunner, text: string, params: Record<string, unknown>): Promise<unknown[]> {
  if ('rows' in runner) return runner.rows<unknown>(text, params);
  return (await runner.query({ query: text, query_params: params, format: 'JSONEachRow' })).json<unknown>();
}

/**
 * A ClickHouse query file (sql/clickhouse/queries/<name>.sql): named, typed parameters in, parsed
 * rows out. The function carries its file's name and text, by which a runner standing in for
 * ClickHouse (the precomputed analytics) recognises the question it is asked.
 */
export function chQuery<Params extends Record<string, unknown>, Row extends z.ZodType>(name: string, row: Row) {
  const text = sqlFile(`clickhouse/queries/${name}.sql`);
  const run = async (ch: ChRunner, params: Params): Promise<z.output<Row>[]> => (await chRows(ch, text, params)).map((r) => row.parse(r));
  return Object.assign(run, { file: name, text });
}

/** A ClickHouse query file whose rows are read as a stream, each parsed (results too large to hold whole). */
export function chStreamQuery<Params extends Record<string, unknown>, Row extends z.ZodType>(name: string, row: Row) {
  const text = sqlFile(`clickhouse/queries/${name}.sql`);
  return async function* (client: ClickHouseClient, params: Params): AsyncGenerator<z.output<Row>> {
    const rs = await client.query({ query: text, query_params: params, format: 'JSONEachRow' });
    for await (const chunk of rs.stream<unknown>()) for (const r of chunk) yield row.parse(r.json());
  };
}

/**
 * A ClickHouse query file read as TabSeparated text, rows never parsed: what another engine's
 * input format takes as it is (PostgreSQL's COPY).
 */
export function chTabSeparated<Params extends Record<string, unknown>>(name: string) {
  const text = sqlFile(`clickhouse/queries/${name}.sql`);
  return async (client: ClickHouseClient, params: Params): Promise<string> =>
    (await client.query({ query: text, query_params: params, format: 'TabSeparated' })).text();
}

/** A ClickHouse statement file (sql/clickhouse/queries/<module>/<name>.sql) run for its effect: DDL, or INSERT … SELECT. */
export function chStatement<Params extends Record<string, unknown>>(file: string) {
  const text = sqlFile(`clickhouse/queries/${file}.sql`);
  return async (client: ClickHouseClient, params: Params, settings?: ClickHouseSettings): Promise<void> => {
    await client.command({ query: text, query_params: params, clickhouse_settings: settings });
  };
}

/**
 * Which of a row schema's columns may be null (a Nullable column), asked of the schema once: a
 * null sent for any other column, like a key left out or a number that is not finite, would be
 * given the column's default by ClickHouse (0, '', 1970-01-01), a quiet zero.
 */
function nullableColumns(row: z.ZodObject): boolean[] {
  return Object.values(row.shape as Record<string, z.ZodType>).map((column) => column.safeParse(null).success);
}

/** The refusal of row `j` of an insert into `table` for its value `v` of `column`: nothing of the insert is sent. */
function refusedValue(table: string, j: number, column: string, v: unknown): Error {
  const what = v === undefined ? 'no' : v === null || typeof v === 'number' ? `${String(v)} as its` : `a ${typeof v} as its`;
  return new Error(`${table}: row ${j} has ${what} ${column}; nothing inserted`);
}

/**
 * A ClickHouse insert into `table`: typed rows in, one encoding (JSONEachRow, a line per row, the
 * columns named by the row schema's keys). The schema types the rows and names the columns; rows
 * are not parsed on the way in (a load inserts 100,000 at a time; the compiler holds them to it).
 * A row lacking a column, holding null for one that is not nullable, or a number that is not
 * finite is refused, naming it, and nothing of the insert is sent, as {@link chInsertTabSeparated} does.
 */
export function chInsert<Row extends z.ZodObject>(table: string, row: Row) {
  const columns = Object.keys(row.shape);
  const nullable = nullableColumns(row);
  return async (client: ClickHouseClient, rows: readonly z.input<Row>[], settings?: Record<string, string | number>): Promise<void> => {
    if (rows.length === 0) return;
    let body = '';
    for (let j = 0; j < rows.length; j++) {
      const r = rows[j] as Record<string, unknown>;
      // JSON.stringify drops an undefined value and writes NaN or Infinity as null (see nullableColumns).
      for (let i = 0; i < columns.length; i++) {
        const v = r[columns[i]!];
        if (v === undefined || (v === null && !nullable[i]) || (typeof v === 'number' && !Number.isFinite(v)))
          throw refusedValue(table, j, columns[i]!, v);
      }
      body += `${JSON.stringify(r)}\n`;
    }
    await insertEncoded(client, { table, columns, body: Buffer.from(body), format: 'JSONEachRow', settings });
  };
}

/** The values a TabSeparated row holds: text (escaped), numbers (as JavaScript writes them), NULL (`\\N`). */
type TsvValue = string | number | null;

/**
 * A ClickHouse insert into `table` in TabSeparated, for the write paths where the encoding's cost
 * is felt (the staged source rows of every ingestion, hundreds of thousands a run): typed rows in,
 * the columns and their order the row schema's keys, every field through one escaping function
 * ({@link tsvField}); a row lacking a column, holding another type, null for a column that is not
 * nullable or a number that is not finite is refused, naming it, and nothing of the insert is sent. `encoded` hands on rows another engine already wrote in this encoding and
 * column order (PostgreSQL's COPY text format: tabs, `\\`-escapes, `\\N` for NULL), unparsed.
 */
export function chInsertTabSeparated<Row extends z.ZodObject<Record<string, z.ZodType<TsvValue>>>>(table: string, row: Row) {
  const columns = Object.keys(row.shape);
  const nullable = nullableColumns(row);
  const insertText = async (client: ClickHouseClient, body: Buffer, settings?: Record<string, string | number>): Promise<void> =>
    insertEncoded(client, { table, columns, body, format: 'TabSeparated', settings });
  const insert = async (client: ClickHouseClient, rows: readonly z.input<Row>[], settings?: Record<string, string | number>) => {
    if (rows.length === 0) return;
    // Fields and lines joined, not appended: V8 flattens one long appended string slowly (measured,
    // 300,000 staged rows: half the CPU time of the hand-written template this replaced).
    const lines = new Array<string>(rows.length + 1);
    const fields = new Array<string>(columns.length);
    for (let j = 0; j < rows.length; j++) {
      const r = rows[j] as Record<string, TsvValue>;
      for (let i = 0; i < columns.length; i++) {
        const v = r[columns[i]!];
        if (typeof v === 'string') fields[i] = tsvField(v);
        else if (typeof v === 'number' && Number.isFinite(v)) fields[i] = String(v);
        else if (v === null && nullable[i]) fields[i] = '\\N';
        // A key a caller left out (or a value of another type) would be written as its text
        // ("undefined"); null or NaN as the column's default (see nullableColumns).
        else throw refusedValue(table, j, columns[i]!, v);
      }
      lines[j] = fields.join('\t');
    }
    lines[rows.length] = '';
    const body = lines.join('\n');
    await insertText(client, Buffer.from(body), settings);
  };
  return Object.assign(insert, { encoded: insertText });
}

/**
 * Column types as they travel: ClickHouse quotes 64-bit integers and decimals (exactness through
 * JSON) and ids may arrive as numbers where code wants text. Strict otherwise: NULL is no number
 * and no text (a nullable column says .nullable()), and text that is not a number fails.
 */
export const col = {
  number: z.union([z.number(), z.string().regex(/^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i)]).transform(Number),
  text: z.union([z.string(), z.number()]).transform(String),
};

/** Rows every module reads: an integer id (RETURNING id), a bigint id (travels as text), a count (n). */
export const rows = {
  id: z.object({ id: z.number().int() }),
  bigId: z.object({ id: col.number }),
  count: z.object({ n: z.number().int() }),
};
