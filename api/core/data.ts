// The API's view of its stores: typed reads that turn connection-level failures into
// StoreUnavailableError (→ 503 holo_data_unavailable). Errors the server itself reports (SQL
// errors, with a SQLSTATE or a ClickHouse error type) stay what they are, except the classes
// that mean the server is going away.
import type pg from 'pg';
import type { ClickHouseClient } from '@clickhouse/client';
import { StoreUnavailableError } from '../http/errors.js';

// SQLSTATE classes 08 (connection exception), 57 (operator intervention: shutdown), 53 (resources).
const PG_UNAVAILABLE_CLASSES = new Set(['08', '57', '53']);

export function isPgUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; severity?: unknown };
  if (typeof e?.severity === 'string' && typeof e.code === 'string') return PG_UNAVAILABLE_CLASSES.has(e.code.slice(0, 2));
  // No server-reported error: the client could not reach or keep a connection.
  return true;
}

export function isClickHouseUnavailable(err: unknown): boolean {
  const e = err as { type?: unknown; clickhouseCode?: unknown };
  // Server-side errors carry a ClickHouse error type (HTTP) or code (chDB); anything else is transport.
  return typeof e?.type !== 'string' && typeof e?.clickhouseCode !== 'number';
}

/** SQL rendering a timestamptz column as ISO 8601 in UTC (`…Z`), to the second or the millisecond. */
export const utcIsoSql = (column: string, precision: 'seconds' | 'millis' = 'seconds') =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS${precision === 'millis' ? '.MS' : ''}"Z"')`;

export type Db = {
  query<T extends pg.QueryResultRow>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs `work` in one transaction on one connection: committed if it returns, rolled back if it throws. */
  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T>;
};

type Queryable = { query<T extends pg.QueryResultRow>(text: string, params?: unknown[]): Promise<pg.QueryResult<T>> };

function unavailableAware(client: Queryable): Db['query'] {
  return async <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) => {
    try {
      return (await client.query<T>(text, params)).rows;
    } catch (err) {
      if (isPgUnavailable(err)) throw new StoreUnavailableError('postgres', err);
      throw err;
    }
  };
}

/** BEGIN, `work`, COMMIT on one connection; ROLLBACK if anything throws; the connection is released. */
async function inTransaction<T>(client: pg.PoolClient, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const query = unavailableAware(client);
  try {
    await query('BEGIN');
    const result = await work(client);
    await query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Runs `work` on one pooled connection inside a transaction (for code below the HTTP layer). */
export async function pgTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return inTransaction(await pool.connect(), work);
}

export function createDb(pool: pg.Pool): Db {
  return {
    query: unavailableAware(pool),
    async transaction(work) {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        throw new StoreUnavailableError('postgres', err);
      }
      return inTransaction(client, (c) => {
        const tx: Db = { query: unavailableAware(c), transaction: (inner) => inner(tx) };
        return work(tx);
      });
    },
  };
}

export type Analytics = { rows<T>(query: string, params?: Record<string, unknown>): Promise<T[]> };

// readonly guards the API's reads on a ClickHouse server (per HTTP request). chDB keeps settings for
// the whole in-process session, where readonly would also lock out the loader, so embedded mode
// relies on the API simply having no write path.
export function createAnalytics(client: ClickHouseClient, opts: { readonly: boolean; isClosed: () => boolean }): Analytics {
  const settings = opts.readonly ? { readonly: '2' as const } : {};
  return {
    async rows<T>(query: string, params: Record<string, unknown> = {}) {
      if (opts.isClosed()) throw new StoreUnavailableError('clickhouse', new Error('connection closed'));
      try {
        const rs = await client.query({ query, query_params: params, format: 'JSONEachRow', clickhouse_settings: settings });
        return await rs.json<T>();
      } catch (err) {
        if (isClickHouseUnavailable(err)) throw new StoreUnavailableError('clickhouse', err);
        throw err;
      }
    },
  };
}
