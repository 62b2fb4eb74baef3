// The typed query layer (sql/typedQuery.ts) on the real stores: rows come out converted to what
// the code uses, and a row that does not match its schema fails loudly instead of flowing on.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { after, before, describe, it } from 'node:test';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import fc from 'fast-check';
import { z } from 'zod';
import pg from 'pg';
import { chQuery, col, pgQuery, PREPARED_QUERY_FILES } from '../sql/typedQuery.js';
import { accountById } from '../sql/accounts.js';
import { ANSWERED_QUERY } from '../sql/cardAnalytics.js';
import { insertStagedSourceRows, type StagedSourceRow } from '../sql/ingestStaging.js';
import { insertIngestRejects } from '../sql/ingestRejects.js';
import { insertPricePoints } from '../sql/priceLoads.js';
import { createUser } from '../api/auth/accounts.js';
import { createDb } from '../sql/stores/db.js';
import { repoRoot } from '../sql/runtime/paths.js';
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
    const misjudged = pgQuery<[id: number], z.ZodObject<{ id: z.ZodString }>>('accounts/account_by_id', z.object({ id: z.string() }));
    await assert.rejects(misjudged(db, created.id), z.ZodError);
  });

  it('turn ClickHouse 64-bit counts, quoted in transit, into numbers, and refuse text that is not one', async () => {
    const totals = chQuery<Record<string, never>, z.ZodObject<{ price_points: typeof col.number }>>(
      'market/price_point_totals',
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

describe('a JSONEachRow insert (chInsert)', () => {
  it('refuses a row that lacks a column, or holds null or a non-finite number where the column cannot, naming it, rather than letting ClickHouse fill in its default; nothing of the insert lands', async () => {
    const ch = stack.stores.ch.client;
    const batch = 'typed-json-missing';
    const row = {
      batch_id: batch,
      source: 'tcgplayer',
      game: 'pokemon',
      ref: 'base1-4',
      reason: 'no price',
      rejected_at: new Date().toISOString().replace('T', ' ').replace('Z', ''),
    };
    const { reason: _missing, ...without } = { ...row, ref: 'base1-5' };
    await assert.rejects(
      insertIngestRejects(ch, [row, without as typeof row]),
      (e: unknown) => e instanceof Error && e.message === 'holo.ingest_rejects: row 1 has no reason; nothing inserted',
    );
    // A key present with the value undefined (a spread of an optional field) is as absent.
    await assert.rejects(
      insertIngestRejects(ch, [{ ...row, source: undefined as unknown as string }]),
      /row 0 has no source; nothing inserted/,
    );
    // null for a column that is not Nullable would be stored as its default ('' here): refused too.
    await assert.rejects(
      insertIngestRejects(ch, [row, { ...row, reason: null as unknown as string }]),
      /row 1 has null as its reason; nothing inserted/,
    );
    // A number that is not finite (JSON writes it as null): refused, nothing of the batch sent.
    const point = {
      card_id: 1,
      variant_id: 1,
      game: 'pokemon',
      region: 'us' as const,
      source: 'tcgplayer',
      price_type: 'market',
      grading_company: 'raw',
      grade: '',
      currency: 'USD',
      amount: '1.00',
      as_of: '2026-01-01',
      observation_id: '',
      ingested_at: row.rejected_at,
      is_outlier: false,
      batch_id: batch,
    };
    await assert.rejects(
      insertPricePoints(ch, [point, { ...point, card_id: Number.NaN }]),
      /row 1 has NaN as its card_id; nothing inserted/,
    );
    const points = await ch.query({
      query: 'SELECT toString(count()) AS n FROM holo.price_points WHERE batch_id = {batch:String}',
      query_params: { batch },
      format: 'JSONEachRow',
    });
    assert.deepEqual(await points.json(), [{ n: '0' }]);
    const count = async () =>
      (
        await (
          await ch.query({
            query: 'SELECT toString(count()) AS n FROM holo.ingest_rejects WHERE batch_id = {batch:String}',
            query_params: { batch },
            format: 'JSONEachRow',
          })
        ).json<{ n: string }>()
      )[0]!.n;
    assert.equal(await count(), '0');
    // The same rows whole are written: the refusal is the missing column, not the insert.
    await insertIngestRejects(ch, [row, { ...row, ref: 'base1-5' }]);
    assert.equal(await count(), '2');
  });
});

describe('a TabSeparated insert (chInsertTabSeparated)', () => {
  it('stages any text a feed holds and reads it back unchanged: tabs, line breaks, backslashes, \\N (fast-check)', async () => {
    // Text built from what TabSeparated gives a meaning to, mixed with any other character.
    const text = fc
      .array(
        fc.oneof(fc.constantFrom('\t', '\n', '\r', '\\', '\\N', '\\t', 'N', '\0', "'", '"'), fc.string({ unit: 'grapheme', maxLength: 3 })),
      )
      .map((parts) => parts.join(''));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(text, text, text), { minLength: 1, maxLength: 5 }), async (values) => {
        const stage = `typed-tsv-${run++}`;
        const rows: StagedSourceRow[] = values.map(([ref_value, observation_id, refused], seq) => ({
          stage_id: stage,
          seq,
          ref_kind: 'pokemontcg_id',
          ref_value,
          finish: '',
          print_run: '',
          region: 'us',
          source: 'tcgplayer',
          price_type: 'market',
          grading_company: '',
          grade: '',
          currency: 'USD',
          amount: '1.25',
          as_of: '2026-11-26',
          observation_id,
          refused,
          refused_ref: ref_value,
        }));
        await insertStagedSourceRows(stack.stores.ch.client, rows);
        const back = await (
          await stack.stores.ch.client.query({
            query:
              'SELECT ref_value, observation_id, refused, refused_ref FROM holo.ingest_source_rows WHERE stage_id = {stage:String} ORDER BY seq',
            query_params: { stage },
            format: 'JSONEachRow',
          })
        ).json<Record<string, string>>();
        assert.deepEqual(
          back,
          values.map(([ref_value, observation_id, refused]) => ({ ref_value, observation_id, refused, refused_ref: ref_value })),
        );
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a row that lacks a column, naming it, rather than writing the text "undefined"; nothing of the insert lands', async () => {
    const stage = 'typed-tsv-missing';
    const row: StagedSourceRow = {
      stage_id: stage,
      seq: 0,
      ref_kind: 'pokemontcg_id',
      ref_value: 'base1-4',
      finish: '',
      print_run: '',
      region: 'us',
      source: 'tcgplayer',
      price_type: 'market',
      grading_company: 'raw',
      grade: '',
      currency: 'USD',
      amount: '1.25',
      as_of: '2026-11-26',
      observation_id: '',
      refused: '',
      refused_ref: '',
    };
    const { observation_id: _missing, ...without } = { ...row, seq: 1 };
    await assert.rejects(
      insertStagedSourceRows(stack.stores.ch.client, [row, without as StagedSourceRow]),
      (e: unknown) => e instanceof Error && /holo\.ingest_source_rows: row 1 has no observation_id/.test(e.message),
    );
    // null for a column that is not nullable, and a number that is not finite: ClickHouse would store the default.
    await assert.rejects(
      insertStagedSourceRows(stack.stores.ch.client, [row, { ...row, seq: 1, amount: null as unknown as string }]),
      /holo\.ingest_source_rows: row 1 has null as its amount; nothing inserted/,
    );
    await assert.rejects(
      insertStagedSourceRows(stack.stores.ch.client, [{ ...row, seq: Number.POSITIVE_INFINITY }]),
      /holo\.ingest_source_rows: row 0 has Infinity as its seq; nothing inserted/,
    );
    const back = await (
      await stack.stores.ch.client.query({
        query: 'SELECT toString(count()) AS n FROM holo.ingest_source_rows WHERE stage_id = {stage:String}',
        query_params: { stage },
        format: 'JSONEachRow',
      })
    ).json<{ n: string }>();
    assert.deepEqual(back, [{ n: '0' }]);
  });
});

describe('the precomputed answers', () => {
  it('are filed under the name of the query file each stands in for', () => {
    // A request's question is recognised by its query's text; the name is what PostgreSQL files the answer under.
    for (const [name, query] of Object.entries(ANSWERED_QUERY)) assert.equal(path.basename(query.file), name);
  });
});

describe('every PostgreSQL query file', () => {
  // The SQL-dialect check of the server pass: each query is parsed, type-checked and planned by the
  // PostgreSQL it runs on (embedded 18 in one pass, the Debian server in the other), without running.
  // Statements PREPARE does not take (COPY, CREATE TEMPORARY TABLE, SET TRANSACTION) are run
  // instead, inside a transaction rolled back: COPY … TO STDOUT drained, COPY … FROM STDIN given
  // no rows. The temporary tables are created first, as the code does before the statements that
  // read them.
  it('is prepared by this PostgreSQL: its syntax, functions, columns and parameter types', async () => {
    const dir = path.join(repoRoot, 'sql', 'postgres', 'queries');
    // One folder per typed module (sql/postgres/queries/<module>/<name>.sql).
    const files = fs
      .readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.sql'))
      .map((name) => {
        const text = fs.readFileSync(path.join(dir, name), 'utf8');
        const statement = text.replace(/^(\s*--[^\n]*\n)*\s*/, '');
        const kind = /^COPY\b[\s\S]*\bTO STDOUT\s*$/i.test(statement)
          ? 'copy-out'
          : /^COPY\b[\s\S]*\bFROM STDIN\s*$/i.test(statement)
            ? 'copy-in'
            : /^CREATE\s+TEMPORARY\s+TABLE\b/i.test(statement)
              ? 'create'
              : /^SET\s+TRANSACTION\b/i.test(statement)
                ? 'transaction'
                : 'prepare';
        return { name, text, kind };
      })
      .sort((a, b) => Number(b.kind === 'create') - Number(a.kind === 'create'));
    assert.ok(files.length > 200, `${files.length} query files`);
    const client = await stack.stores.pg.pool.connect();
    const refused: string[] = [];
    const check = async (i: number, { name, text, kind }: (typeof files)[number]) => {
      try {
        if (kind === 'create') await client.query(text);
        else if (kind === 'copy-out') for await (const _ of client.query(copyTo(text)));
        else if (kind === 'copy-in') await pipeline(Readable.from([]), client.query(copyFrom(text)));
        else {
          await client.query(`PREPARE holo_check_${i} AS ${text}`);
          await client.query(`DEALLOCATE holo_check_${i}`);
        }
        return true;
      } catch (err) {
        refused.push(`${name}: ${(err as Error).message}`);
        return false;
      }
    };
    // What needs a transaction runs in one as short as it can be: a transaction that writes (a
    // temporary table does) holds back every reader's snapshot on the server, and the change feeds
    // of other databases on it (incremental-sync, beside this file in the server pass) wait for it.
    const creates = files.filter((f) => f.kind === 'create').map((f) => /TABLE\s+(\w+)/i.exec(f.text)![1]!);
    const needsTransaction = (f: (typeof files)[number]) =>
      f.kind !== 'prepare' || creates.some((c) => new RegExp(`\\b${c}\\b`).test(f.text));
    try {
      for (const [i, f] of files.entries()) if (!needsTransaction(f)) await check(i, f);
      for (const f of files.filter((f) => f.kind === 'transaction')) {
        await client.query('BEGIN');
        await check(-1, { ...f, kind: 'create' });
        await client.query('ROLLBACK');
      }
      await client.query('BEGIN');
      for (const [i, f] of files.entries()) {
        if (f.kind === 'transaction' || !needsTransaction(f)) continue;
        await client.query('SAVEPOINT holo_check');
        // The temporary tables stay for the statements after them; everything else is undone.
        if ((await check(i, f)) && f.kind === 'create') await client.query('RELEASE SAVEPOINT holo_check');
        else await client.query('ROLLBACK TO SAVEPOINT holo_check');
      }
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
    }
    assert.deepEqual(refused, []);
    // Each kind was met (a file of a new kind would be checked as a PREPARE and refused above).
    assert.deepEqual([...new Set(files.map((f) => f.kind))].sort(), ['copy-in', 'copy-out', 'create', 'prepare', 'transaction']);
  });
});

describe('prepared statements (pgQuery { prepared: true })', () => {
  it('are only query files whose plan cannot depend on their values and that name their columns', async () => {
    // Every typed module, so each declared statement registers itself.
    for (const file of fs.readdirSync(path.join(repoRoot, 'dist/sql')).filter((f) => f.endsWith('.js')))
      await import(path.join(repoRoot, 'dist/sql', file));
    assert.ok(PREPARED_QUERY_FILES.has('cardAnalytics/card_analytics_of_card'), 'the precomputed answers are read prepared');
    for (const name of PREPARED_QUERY_FILES) {
      const sql = fs
        .readFileSync(path.join(repoRoot, 'sql/postgres/queries', `${name}.sql`), 'utf8')
        .replace(/--.*$/gm, '')
        .toUpperCase();
      // An optional filter, a pattern or a caller's offset: a generic plan may be far worse for some values.
      assert.doesNotMatch(sql, /IS NULL OR|\bI?LIKE\b|\bOFFSET\b/, `${name}: its best plan depends on its values`);
      // A * in the select list: a migration adding a column makes the prepared plan fail.
      assert.doesNotMatch(sql, /(SELECT|,|\.)\s*\*/, `${name}: selects *`);
    }
  });

  it('made stale by a migration are asked again unnamed on the pool, and a transaction drops its connection', async () => {
    const pool = new pg.Pool({ ...stack.stores.pg.pool.options, max: 1 });
    try {
      const db = createDb(pool);
      await db.query('CREATE TABLE stale_plan_probe (a integer)');
      await db.query('INSERT INTO stale_plan_probe VALUES (7)');
      const read = () => db.query<{ a: unknown }>('SELECT a FROM stale_plan_probe', [], 'holo_stale_plan_probe');
      assert.deepEqual(await read(), [{ a: 7 }]);
      // What a migration run by another instance does to a column this connection's plan returns.
      await new pg.Client(stack.stores.pg.pool.options).connect().then(async (c) => {
        await c.query('ALTER TABLE stale_plan_probe ALTER COLUMN a TYPE text');
        await c.end();
      });
      assert.deepEqual(await read(), [{ a: '7' }]);
      // In a transaction the statement cannot be asked again: the caller sees the error, the pool
      // loses that connection (it would fail the statement again), the next read works.
      await read();
      await new pg.Client(stack.stores.pg.pool.options).connect().then(async (c) => {
        await c.query('ALTER TABLE stale_plan_probe ALTER COLUMN a TYPE integer USING a::integer');
        await c.end();
      });
      await assert.rejects(
        db.transaction((tx) => tx.query('SELECT a FROM stale_plan_probe', [], 'holo_stale_plan_probe')),
        (err: { code?: string }) => err.code === '0A000',
      );
      assert.equal(pool.totalCount, 0);
      assert.deepEqual(await read(), [{ a: 7 }]);
    } finally {
      await pool.end();
    }
  });
});
