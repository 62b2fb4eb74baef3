// PostgreSQL as the app sees it: typed reads and one-connection transactions that turn
// connection-level failures into StoreUnavailableError.
import type pg from 'pg';
import { isPgUnavailable, isStalePreparedStatement, StoreUnavailableError } from './unavailable.js';

export type Db = {
  /** `prepared`: a statement name, so each connection parses and plans `text` once (see typedQuery.ts). */
  query<T extends pg.QueryResultRow>(text: string, params?: unknown[], prepared?: string): Promise<T[]>;
  /** Runs `work` in one transaction on one connection: committed if it returns, rolled back if it throws. */
  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T>;
};

type Queryable = Pick<pg.Pool, 'query'>;

function unavailableAware(client: Queryable, pooled: boolean): Db['query'] {
  return async <T extends pg.QueryResultRow>(text: string, params: unknown[] = [], prepared?: string) => {
    try {
      try {
        return (await client.query<T>(prepared ? { name: prepared, text, values: params } : { text, values: params })).rows;
      } catch (err) {
        // A prepared statement a migration made stale: on the pool its connection is already
        // dropped (pg-pool releases it with the error), so asked once more, unnamed.
        if (!prepared || !pooled || !isStalePreparedStatement(err)) throw err;
        return (await client.query<T>({ text, values: params })).rows;
      }
    } catch (err) {
      if (isPgUnavailable(err)) throw new StoreUnavailableError('postgres', err);
      throw err;
    }
  };
}

/** BEGIN, `work`, COMMIT on one connection; ROLLBACK if anything throws; the connection is released. */
async function inTransaction<T>(client: pg.PoolClient, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const query = unavailableAware(client, false);
  let stale: unknown;
  try {
    await query('BEGIN');
    const result = await work(client);
    await query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    // A connection holding a stale prepared statement would fail it again: dropped, not pooled.
    if (isStalePreparedStatement(err)) stale = err;
    throw err;
  } finally {
    client.release(stale as Error | undefined);
  }
}

/** Runs `work` on one pooled connection inside a transaction (for code below the HTTP layer). */
export async function pgTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return inTransaction(await pool.connect(), work);
}

export function createDb(pool: pg.Pool): Db {
  return {
    query: unavailableAware(pool, true),
    async transaction(work) {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        throw new StoreUnavailableError('postgres', err);
      }
      return inTransaction(client, (c) => {
        const tx: Db = { query: unavailableAware(c, false), transaction: (inner) => inner(tx) };
        return work(tx);
      });
    },
  };
}
