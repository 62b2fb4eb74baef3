// Direct ClickHouse access for data teams in embedded mode: unmodified ClickHouse clients
// (@clickhouse/client, and clickhouse-connect from PyPI in a virtual environment) reach chDB at
// /clickhouse with an API key, read the documented tables with the answers the store itself gives,
// and are refused writes, undocumented tables, table functions and results over the limits.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { READER_LIMITS, READER_TABLES, readerAccessStatements } from '../sql/stores/clickhouseAccess.js';
import { toolCacheDir } from '../sql/runtime/toolCache.js';
import { repoRoot } from '../sql/runtime/paths.js';
import { READER_FUNCTION_FAMILIES } from '../sql/stores/clickhouseReaderFunctions.js';
import { allowedFunction } from '../api/clickhouse/readerStatement.js';
import { accountWithKey } from './support/accounts.js';
import { startStack, type Stack } from './support/stack.js';

const run = promisify(execFile);
const CLICKHOUSE_CONNECT_VERSION = '1.12.0';

let stack: Stack;
let proKey: string;
let freeKey: string;
let client: ClickHouseClient;
let card: number;

before(async () => {
  stack = await startStack();
  proKey = (await accountWithKey(stack, 'datateam', 'pro')).key;
  freeKey = (await accountWithKey(stack, 'freeloader', 'free')).key;
  // The URL's path would name a database: a proxy path is `pathname`.
  client = createClient({ url: stack.url, pathname: '/clickhouse', username: 'holo', password: proKey, request_timeout: 120_000 });
  const rs = await stack.stores.ch.client.query({
    query: 'SELECT card_id FROM holo.price_points GROUP BY card_id ORDER BY count() DESC LIMIT 1',
    format: 'JSONEachRow',
  });
  card = Number((await rs.json<{ card_id: number }>())[0]!.card_id);
});
after(async () => {
  await client?.close();
  await stack?.close();
});

/** The same query straight on the store (the API's own client), for comparison. */
async function direct<T>(query: string): Promise<T[]> {
  const rs = await stack.stores.ch.client.query({ query, format: 'JSONEachRow' });
  return rs.json<T>();
}

const raw = (query: string, init: RequestInit & { search?: string } = {}) =>
  fetch(`${stack.url}/clickhouse/?query=${encodeURIComponent(query)}${init.search ?? ''}`, {
    ...init,
    headers: { 'X-ClickHouse-User': 'holo', 'X-ClickHouse-Key': proKey, ...(init.headers as Record<string, string>) },
  });

describe('@clickhouse/client against /clickhouse', () => {
  it('pings and reads the documented tables as the store answers them, with query parameters', async () => {
    assert.equal((await client.ping()).success, true);
    const rs = await client.query({
      query:
        'SELECT source, count() AS n, toString(sum(amount)) AS total FROM holo.price_points WHERE card_id = {card:UInt32} GROUP BY source ORDER BY source',
      query_params: { card },
      format: 'JSONEachRow',
    });
    const got = await rs.json<{ source: string; n: string; total: string }>();
    const want = await direct<{ source: string; n: string; total: string }>(
      `SELECT source, count() AS n, toString(sum(amount)) AS total FROM holo.price_points WHERE card_id = ${card} GROUP BY source ORDER BY source`,
    );
    assert.ok(want.length >= 2);
    assert.deepEqual(got, want);
  });

  it('streams a large result row by row in the format asked for', async () => {
    const n = (await direct<{ n: string }>('SELECT count() AS n FROM holo.price_points'))[0]!.n;
    const rs = await client.query({ query: 'SELECT card_id, as_of, amount FROM holo.price_points', format: 'JSONCompactEachRow' });
    let rows = 0;
    for await (const batch of rs.stream()) rows += batch.length;
    assert.equal(rows, Number(n));
    assert.ok(rows > 100_000, `the demo history has ${rows} price points`);
    // Formats that are one document (JSON) come whole, with their statistics.
    const whole = await client.query({
      query: 'SELECT count() AS n FROM holo.price_daily WHERE card_id = {card:UInt32}',
      query_params: { card },
      format: 'JSON',
    });
    const doc = await whole.json<{ n: string }>();
    assert.equal(doc.data.length, 1);
  });

  it('tells a data team what every column means', async () => {
    for (const table of READER_TABLES.filter((t) => !t.startsWith('card_'))) {
      const rs = await client.query({ query: `DESCRIBE TABLE holo.${table}`, format: 'JSONEachRow' });
      const columns = await rs.json<{ name: string; comment: string }>();
      assert.ok(columns.length > 0, table);
      assert.deepEqual(
        columns.filter((c) => !c.comment).map((c) => c.name),
        [],
        `${table}: columns without a comment`,
      );
    }
  });

  it('refuses writes, undocumented tables, table functions, settings and several statements', async () => {
    // 164 READONLY, 497 ACCESS_DENIED, 62 SYNTAX_ERROR: what a server's reader user would be told.
    const refused = async (query: string, code: RegExp) => {
      await assert.rejects(
        async () => (await client.query({ query, format: 'JSONEachRow' })).json(),
        (err: Error & { code?: string }) => {
          assert.match(err.code ?? '', code, `${query}: ${err.message}`);
          return true;
        },
      );
    };
    await refused("INSERT INTO holo.fx_rates (day, currency, rate, source) VALUES ('2026-01-01', 'XXX', 1, 'x')", /^164$/);
    await refused('DROP TABLE holo.price_points', /^164$/);
    await refused('SELECT * FROM holo.schema_migrations', /^497$/);
    await refused("SELECT * FROM file('/etc/passwd', 'LineAsString')", /^(164|497)$/);
    // The file function reads files even under readonly: refused by name, in any case, anywhere.
    await refused("SELECT file('/etc/hostname')", /^497$/);
    await refused("SELECT length(FiLe('/etc/hostname')) FROM holo.fx_rates", /^497$/);
    await refused("SELECT 1 WHERE 1 IN (SELECT length(file('/etc/hostname')))", /^497$/);
    await refused("SELECT * FROM url('http://127.0.0.1:1/', 'LineAsString')", /^(164|497)$/);
    await refused('SELECT 1; DROP TABLE holo.price_points', /^62$/);
    await refused('SELECT 1 SETTINGS max_result_rows = 1000000000', /^164$/);
    await assert.rejects(client.query({ query: 'SELECT 1', clickhouse_settings: { max_execution_time: 3600 } }), /readonly/);
    // Nothing was written or dropped.
    assert.equal((await direct<{ n: string }>("SELECT count() AS n FROM holo.fx_rates WHERE currency = 'XXX'"))[0]!.n, '0');
    assert.ok(Number((await direct<{ n: string }>('SELECT count() AS n FROM holo.price_points'))[0]!.n) > 0);
  });

  it('runs the SQL data teams write: every clause, operator syntax, aggregates with combinators, windows', async () => {
    for (const query of [
      "SELECT CASE number WHEN 1 THEN 'a' ELSE 'b' END, CASE WHEN number > 1 THEN 1 END FROM numbers_10 LIMIT 3",
      'SELECT count(DISTINCT number), uniq(number), countIf(number > 2), sum(number + 1), avg(number) FROM numbers_10',
      "SELECT EXTRACT(YEAR FROM now()), DATE '2020-01-01', TIMESTAMP '2020-01-01 00:00:00', now() - INTERVAL 1 HOUR",
      "SELECT TRIM(BOTH ' ' FROM ' a '), SUBSTRING('abc' FROM 1 FOR 2), POSITION('b' IN 'abc'), 'a' || 'b', [1, 2][1], (1, 2).1, -number, number BETWEEN 1 AND 2, number IS NULL FROM numbers_10 LIMIT 1",
      'SELECT number, row_number() OVER (ORDER BY number), lagInFrame(number) OVER (ORDER BY number ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), sum(number) OVER w FROM numbers_10 WINDOW w AS (ORDER BY number) LIMIT 5',
      'SELECT number % 3 AS k, groupArray(number), argMax(number, number), quantiles(0.1, 0.9)(number), median(number) FROM (SELECT number FROM numbers_10 LIMIT 100) GROUP BY k WITH ROLLUP',
      'SELECT uniqExactIf(number, number > 1), sumArray([number]), avgOrNull(number), countDistinctIf(number, number > 2) FROM numbers_10',
      "SELECT if(number > 1, 'y', 'n'), coalesce(NULL, 1), CAST(1 AS String), 1::String, arrayMap(x -> x * 2, [number]) FROM numbers_10 LIMIT 1",
      `WITH recent AS (SELECT card_id, amount FROM holo.price_points WHERE card_id = ${card}) SELECT count(), max(amount) FROM recent`,
      `SELECT p.source, count() FROM holo.price_points AS p INNER JOIN holo.price_latest AS l ON l.card_id = p.card_id WHERE p.card_id IN (SELECT card_id FROM holo.price_latest WHERE card_id = ${card}) GROUP BY p.source`,
      "SELECT name, type FROM system.columns WHERE database = 'holo' AND table = 'price_points'",
      'SHOW TABLES FROM holo',
      'EXISTS TABLE holo.price_points',
    ]) {
      const res = await raw(query.replaceAll('FROM numbers_10', 'FROM (SELECT number FROM system.numbers LIMIT 10)'));
      assert.equal(res.status, 200, `${query}: ${await res.text()}`);
    }
  });

  it('runs one query at a time per account, so one caller cannot hold every reader session', async () => {
    const other = (await accountWithKey(stack, 'otherteam', 'pro')).key;
    const slow = 'SELECT sum(cityHash64(number)) FROM (SELECT number FROM system.numbers LIMIT 200000000)';
    const finished: string[] = [];
    const timed = (label: string, query: string, as = proKey) =>
      fetch(`${stack.url}/clickhouse/?query=${encodeURIComponent(query)}`, { headers: { 'X-ClickHouse-Key': as } }).then(async (res) => {
        assert.equal(res.status, 200, await res.text());
        finished.push(label);
      });
    const first = timed('slow', slow);
    // Sent while the slow one runs: the same account's quick query waits for it, another's does not.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await Promise.all([first, timed('same account', 'SELECT 1'), timed('other account', 'SELECT 1', other)]);
    assert.deepEqual(finished, ['other account', 'slow', 'same account']);
  });

  it('refuses a query over the result limit with ClickHouse\u2019s own error', async () => {
    const res = await raw(`SELECT number FROM system.numbers LIMIT ${READER_LIMITS.max_result_rows + 1} FORMAT JSON`);
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('x-clickhouse-exception-code'), '396');
    assert.match(await res.text(), /^Code: 396\. DB::Exception: .*max rows/);
  });
});

describe("sql/README.md's example queries", () => {
  it('each runs through /clickhouse on the demo data and answers rows', async () => {
    const readme = fs.readFileSync(path.join(repoRoot, 'sql', 'README.md'), 'utf8');
    const questions = readme.slice(readme.indexOf('### Questions data teams ask'));
    const queries = [...questions.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());
    assert.equal(queries.length, 3);
    const [variant] = await direct<{ variant_id: number }>(
      `SELECT variant_id FROM holo.price_points WHERE card_id = ${card} AND region = 'eu' GROUP BY variant_id ORDER BY count() DESC LIMIT 1`,
    );
    for (const query of queries) {
      const since = new Date(Date.now() - 180 * 86_400_000).toISOString().slice(0, 10);
      const rs = await client.query({ query, query_params: { card, variant: Number(variant!.variant_id), since }, format: 'JSONEachRow' });
      const rows = await rs.json();
      assert.ok(rows.length > 0, query);
    }
  });
});

describe('the HTTP interface itself', () => {
  it('answers gzip when asked, takes the query in the body and a default format', async () => {
    const res = await fetch(`${stack.url}/clickhouse?default_format=CSVWithNames&enable_http_compression=1`, {
      method: 'POST',
      body: `SELECT card_id, count() AS n FROM holo.price_points WHERE card_id = ${card} GROUP BY card_id`,
      headers: { Authorization: `Basic ${Buffer.from(`holo:${proKey}`).toString('base64')}`, 'Accept-Encoding': 'gzip' },
    });
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(res.headers.get('x-clickhouse-format'), 'CSVWithNames');
    // fetch undoes the gzip itself; the header says it was there.
    assert.equal(res.headers.get('content-encoding'), 'gzip');
    const [header, row] = (await res.text()).trim().split('\n');
    assert.equal(header, '"card_id","n"');
    assert.equal(row!.split(',')[0], String(card));
    const zipped = await fetch(`${stack.url}/clickhouse?enable_http_compression=1&password=${proKey}`, {
      method: 'POST',
      body: zlib.gzipSync('SELECT 41 + 1'),
      headers: { 'Content-Encoding': 'gzip' },
    });
    assert.equal((await zipped.text()).trim(), '42');
  });

  it('refuses protocol parameters outside their values', async () => {
    for (const q of ['enable_http_compression=AAA', 'default_format=Nope', 'database=system']) {
      const res = await raw('SELECT 1', { search: `&${q}` });
      assert.equal(res.status, 400, q);
      assert.match(await res.text(), /^Code: 36\. DB::Exception: parameter /);
    }
  });

  it('keeps the header of a streamed text format once', async () => {
    const res = await raw('SELECT number FROM system.numbers LIMIT 3000000 FORMAT TSVWithNames');
    const text = await res.text();
    assert.equal(text.split('\n').filter((l) => l === 'number').length, 1);
    assert.equal(text.trim().split('\n').length, 3_000_001);
  });

  it('gives its session back when a client goes away mid-result', async () => {
    // Two reader sessions: three abandoned streams would leave none if they were not returned.
    for (let i = 0; i < 3; i++) {
      const controller = new AbortController();
      const res = await raw('SELECT * FROM system.numbers LIMIT 50000000 FORMAT TSV', { signal: controller.signal });
      const reader = res.body!.getReader();
      await reader.read();
      // Long enough for the server to fill the socket and wait for a drain that will not come.
      await new Promise((resolve) => setTimeout(resolve, 400));
      controller.abort();
      await reader.closed.catch(() => undefined);
    }
    const after = await raw('SELECT count() FROM holo.fx_to_usd', { signal: AbortSignal.timeout(30_000) });
    assert.equal(after.status, 200);
    assert.match((await after.text()).trim(), /^\d+$/);
  });

  it('admits Pro keys, administrators and the operator, refuses others', async () => {
    assert.equal((await fetch(`${stack.url}/clickhouse?query=SELECT%201`)).status, 401);
    assert.equal((await fetch(`${stack.url}/clickhouse?query=SELECT%201&user=holo&password=${freeKey}`)).status, 403);
    assert.equal((await fetch(`${stack.url}/clickhouse?query=SELECT%201&user=holo&password=holo_nope`)).status, 401);
    const admin = (await accountWithKey(stack, 'freeadmin', 'free', { admin: true })).key;
    const byAdmin = await fetch(`${stack.url}/clickhouse?query=SELECT%202&user=holo&password=${admin}`);
    assert.equal((await byAdmin.text()).trim(), '2', 'an administrator of any tier');
    const token = fs.readFileSync(path.join(stack.config.dataDir, 'admin-token'), 'utf8').trim();
    const operator = await fetch(`${stack.url}/clickhouse?query=SELECT%201`, { headers: { 'X-ClickHouse-Key': token } });
    assert.equal((await operator.text()).trim(), '1');
  });

  it("allows functions of ClickHouse's own safe families only, as the engine itself files them", async () => {
    const known = new Map(
      (
        await direct<{ name: string; category: string }>(
          "SELECT f.name AS name, if(f.alias_to = '', f.categories, t.categories) AS category FROM system.functions AS f LEFT JOIN system.functions AS t ON t.name = f.alias_to",
        )
      ).map((r) => [r.name, r.category]),
    );
    for (const [family, names] of Object.entries(READER_FUNCTION_FAMILIES)) {
      for (const name of names) {
        assert.ok(known.has(name), `${name} is not a function of this engine`);
        assert.equal(known.get(name), family === 'Other (chosen)' ? 'Other' : family, name);
      }
    }
    // Families that reach outside the tables are not on the list at all.
    for (const family of ['Dictionary', 'Introspection', 'Internal', 'AI', 'Other', 'Encryption'])
      assert.ok(!(family in READER_FUNCTION_FAMILIES), family);
    for (const name of [
      'file',
      'FILE',
      'url',
      'dictGet',
      'getSetting',
      'arrayReduce',
      'fileIf',
      'sleepIf',
      'joinGet',
      'aiGenerate',
      'uniqState',
      'sumMerge',
      'uniqMergeState',
    ])
      assert.equal(allowedFunction(name), false, name);
    for (const name of [
      'sum',
      'SUM',
      'sumIf',
      'uniqExactIfOrNull',
      'avgOrNullIf',
      'argMaxIf',
      'quantilesTDigest',
      'lower',
      'toStartOfDay',
      '_CAST',
    ])
      assert.equal(allowedFunction(name), true, name);
  });

  it('gives a ClickHouse server the same reader: role, grants on the documented tables alone, profile, hashed password', () => {
    const statements = readerAccessStatements({ user: 'analyst', password: 'a long reader password' }, 'main');
    assert.ok(statements.every((s) => / ON CLUSTER main\b/.test(s)));
    assert.deepEqual(
      statements.filter((s) => s.startsWith('GRANT ON CLUSTER main SELECT')).map((s) => /holo\.(\w+)/.exec(s)![1]),
      [...READER_TABLES],
    );
    assert.ok(statements.some((s) => s.includes('readonly = 1') && s.includes(`max_result_rows = ${READER_LIMITS.max_result_rows}`)));
    assert.ok(statements.every((s) => !s.includes('a long reader password')));
    assert.throws(() => readerAccessStatements({ user: "x'; DROP USER default; --", password: 'p'.repeat(16) }, undefined));
  });
});

describe('clickhouse-connect (PyPI) against /clickhouse', () => {
  it('connects unmodified, reads with server-side parameters and is refused writes', async () => {
    const venv = path.join(toolCacheDir(), `clickhouse-connect-${CLICKHOUSE_CONNECT_VERSION}`);
    const python = path.join(venv, 'bin', 'python');
    if (!fs.existsSync(python)) {
      await run('python3', ['-m', 'venv', venv]);
      await run(path.join(venv, 'bin', 'pip'), ['install', '--quiet', `clickhouse-connect==${CLICKHOUSE_CONNECT_VERSION}`], {
        maxBuffer: 16 * 1024 * 1024,
      });
    }
    const script = path.join(repoRoot, 'test', 'support', 'python', 'clickhouse_connect_session.py');
    const { stdout } = await run(python, [script, stack.url, proKey, String(card)], { maxBuffer: 16 * 1024 * 1024 });
    const out = JSON.parse(stdout);
    assert.equal(String(out.count), (await direct<{ n: string }>('SELECT count() AS n FROM holo.price_points'))[0]!.n);
    const want = await direct<{ source: string; n: string; total: string }>(
      `SELECT source, count() AS n, toString(sum(amount)) AS total FROM holo.price_points WHERE card_id = ${card} AND NOT is_outlier GROUP BY source ORDER BY source`,
    );
    assert.deepEqual(
      out.by_source,
      want.map((r) => [r.source, Number(r.n), r.total]),
    );
    assert.equal(out.daily_median.length, 3);
    assert.ok(out.describe.every(([, comment]: [string, string]) => comment.length > 0));
    assert.match(out.insert, /164|readonly/i);
    assert.match(out.drop, /164|readonly/i);
    assert.match(out.other_table, /497|privileges/i);
  });
});
