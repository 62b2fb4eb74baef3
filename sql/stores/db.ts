// PostgreSQL as the app sees it: typed reads and one-connection transactions that turn
// connection-level failures into StoreUnavailableError.
import type pg from 'pg';
import { isPgUnavailable, StoreUnavailableError } from './unavailable.js';

export type Db = {
  /** `prepared`: a statement name, so each connection parses and plans `text` once (see typedQuery.ts). */
  query<T extends pg.QueryResultRow>(text: string, params?: unknown[], prepared?: string): Promise<T[]>;
  /** Runs `work` in one transaction on one connection: committed if it returns, rolled back if it throws. */
  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T>;
};

type Queryable = Pick<pg.Pool, 'query'>;

function unavailableAware(client: Queryable): Db['query'] {
  return async <T extends pg.QueryResultRow>(text: string, params: unknown[] = [], prepared?: string) => {
    try {
      return (await client.query<T>(prepared ? { name: prepared, text, values: params } : { text, values: params })).rows;
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
