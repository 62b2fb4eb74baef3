// The typed query layer (sql/typedQuery.ts) on the real stores: rows come out converted to what
// the code uses, and a row that does not match its schema fails loudly instead of flowing on.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { chQuery, col, pgQuery } from '../sql/typedQuery.js';
import { accountById } from '../sql/accounts.js';
import { createUser } from '../api/auth/accounts.js';
import { createDb } from '../sql/stores/db.js';
import { repoRoot } from '../sql/paths.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
before(async () => {
  stack = await startStack({ demo: 'none' });
});
after(async () => {
  await stack?.close();
});

describe('typed queries', () => {
  it('read an account through its view with the timestamps as ISO 8601 UTC text', async () => {
    const db = createDb(stack.stores.pg.pool);
    const created = await createUser(db, { username: 'typedrows', email: 'typed@example.com', password: 'long enough password' });
    const [row] = await accountById(db, created.id);
    assert.equal(row!.username, 'typedrows');
    assert.match(row!.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.equal(row!.delete_requested_at, null);
  });

  it('refuse a row whose column types disagree with the schema', async () => {
    const db = createDb(stack.stores.pg.pool);
    const created = await createUser(db, { username: 'wrongshape', email: 'wrong@example.com', password: 'long enough password' });
    // The same query file read with a schema that expects the id as text: the row is refused.
    const misjudged = pgQuery<[id: number], z.ZodObject<{ id: z.ZodString }>>('account_by_id', z.object({ id: z.string() }));
    await assert.rejects(misjudged(db, created.id), z.ZodError);
  });

  it('turn ClickHouse 64-bit counts, quoted in transit, into numbers, and refuse text that is not one', async () => {
    const totals = chQuery<Record<string, never>, z.ZodObject<{ price_points: typeof col.number }>>(
      'price_point_totals',
      z.object({ price_points: col.number }),
    );
    const [row] = await totals(stack.stores.ch.client, {});
    assert.equal(typeof row!.price_points, 'number');
    assert.equal(col.number.parse('12.5'), 12.5);
    assert.equal(col.number.parse('9007199254740991'), Number.MAX_SAFE_INTEGER);
    assert.throws(() => col.number.parse(null), z.ZodError);
    assert.throws(() => col.number.parse('n/a'), z.ZodError);
    assert.throws(() => col.text.parse(null), z.ZodError);
  });
});

describe('every PostgreSQL query file', () => {
  // The SQL-dialect check of the server pass: each query is parsed, type-checked and planned by the
  // PostgreSQL it runs on (embedded 18 in one pass, the Debian server in the other), without running.
  it('is prepared by this PostgreSQL: its syntax, functions, columns and parameter types', async () => {
    const dir = path.join(repoRoot, 'sql', 'postgres', 'queries');
    const names = fs.readdirSync(dir).filter((f) => f.endsWith('.sql'));
    assert.ok(names.length > 200, `${names.length} query files`);
    const client = await stack.stores.pg.pool.connect();
    const refused: string[] = [];
    try {
      for (const [i, name] of names.entries()) {
        const text = fs.readFileSync(path.join(dir, name), 'utf8');
        try {
          await client.query(`PREPARE holo_check_${i} AS ${text}`);
          await client.query(`DEALLOCATE holo_check_${i}`);
        } catch (err) {
          refused.push(`${name}: ${(err as Error).message}`);
        }
      }
    } finally {
      client.release();
    }
    assert.deepEqual(refused, []);
  });
});
