// /clickhouse as an attacker with a paying key sees it (issue 31): texts built from ClickHouse's
// grammar that try to run a second statement, read a file, write one, or change a setting. None
// may run: the canary file's content and the server's secrets never come back, no file appears,
// nothing answers 500. A fixed corpus of the known forms, then generated texts (fast-check).
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { accountWithKey } from './support/accounts.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
let key: string;
let scratch: string;
let canary: { path: string; content: string };
let secrets: string[];

before(async () => {
  stack = await startStack({ demo: 'none' });
  // The Unlimited tier: the most any paying key may do, and no per-minute limit in the way of a few
  // hundred attempts (rate limits have tests of their own).
  key = (await accountWithKey(stack, 'attacker', 'unlimited')).key;
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'holo-smuggle-'));
  canary = { path: path.join(scratch, 'canary'), content: `canary-${crypto.randomBytes(12).toString('hex')}` };
  fs.writeFileSync(canary.path, canary.content);
  // Every secret the data directory holds: none may come back in any answer.
  secrets = fs
    .readdirSync(stack.config.dataDir)
    .filter((f) => /secret|key|token/.test(f))
    .map((f) => path.join(stack.config.dataDir, f))
    .filter((f) => fs.statSync(f).isFile());
  assert.ok(
    secrets.some((f) => f.endsWith('session-secret')),
    'the data directory holds the session secret',
  );
});
after(async () => {
  await stack?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

type Answer = { status: number; body: string };
async function send(body: string, query = '', format = 'TSVRaw'): Promise<Answer> {
  const res = await fetch(`${stack.url}/clickhouse/?default_format=${format}${query ? `&query=${encodeURIComponent(query)}` : ''}`, {
    method: 'POST',
    body,
    headers: { 'X-ClickHouse-User': 'holo', 'X-ClickHouse-Key': key },
  });
  return { status: res.status, body: await res.text() };
}

const secretContents = () => [canary.content, ...secrets.map((f) => fs.readFileSync(f, 'utf8').trim())].filter((s) => s.length >= 8);

/** The answer ran nothing forbidden: no secret in it, no new file in the scratch folder, no 500. */
function assertNothingRan(what: string, answer: Answer, outfiles: string[] = []): void {
  assert.notEqual(answer.status, 500, `${what}: ${answer.body}`);
  for (const secret of secretContents()) assert.ok(!answer.body.includes(secret), `${what} leaked a secret: ${answer.body}`);
  // A canary's base64 or hex would be a leak too.
  assert.ok(!answer.body.includes(Buffer.from(canary.content).toString('hex')), `${what} leaked the canary as hex`);
  for (const file of outfiles) assert.ok(!fs.existsSync(file), `${what} wrote ${file}`);
  assert.deepEqual(
    fs.readdirSync(scratch).filter((f) => f !== 'canary'),
    [],
    `${what} wrote into the scratch folder`,
  );
}

// Forbidden calls: each would read the canary or a secret if it ran.
const reads = (file: string) => [
  `file('${file}')`,
  // A function passed by name to a higher-order function is a call all the same.
  `arrayMap(file, ['${file}'])[1]`,
  `arrayMap(\`file\`, ['${file}'])[1]`,
  `arraySort(file, ['${file}'])[1]`,
  `FiLe('${file}')`,
  `\`file\`('${file}')`,
  `"file"('${file}')`,
  `(SELECT * FROM file('${file}', 'RawBLOB'))`,
  `(SELECT * FROM url('file://${file}', 'RawBLOB'))`,
];

describe('a second statement hidden from a hand-written splitter', () => {
  it('never runs, whatever comment, string or quoting form hides the semicolon', async () => {
    const call = `file('${canary.path}')`;
    const session = `file('${path.join(stack.config.dataDir, 'session-secret')}')`;
    const corpus = [
      // The report's own attack: `#` is a comment to ClickHouse.
      `SELECT 1 # '\n; SELECT ${session}; -- '`,
      `SELECT 1 #! '\n; SELECT ${call}; -- '`,
      `SELECT 1 -- '\n; SELECT ${call}; -- '`,
      // Nested block comments: the first */ does not close the outer one.
      `SELECT 1 /* /* */ '; */ ; SELECT ${call} -- '`,
      `SELECT 1 /* /* */ */ ; SELECT ${call}`,
      // Heredoc strings, tagged and not.
      `SELECT $$ ' $$; SELECT ${call} -- '`,
      `SELECT $tag$ '; $tag$; SELECT ${call}`,
      // String escapes: backslash, doubled quote, in every quoting form.
      `SELECT 'a\\'b'; SELECT ${call} -- '`,
      `SELECT 'a''b'; SELECT ${call}`,
      `SELECT 1 AS \`x\\\`'\`; SELECT ${call} -- '`,
      `SELECT 1 AS "x\\"'"; SELECT ${call} -- '`,
      `SELECT 1 AS "x""'"; SELECT ${call} -- '`,
      `SELECT ';' ; SELECT ${call}`,
      `SELECT 1; SELECT ${call}`,
      `SELECT 1;\n\n SELECT ${call};`,
      // Whitespace and look-alikes: unicode line separators, no-break space, a fullwidth semicolon.
      `SELECT 1\u2028; SELECT ${call}`,
      `SELECT 1;\u00a0SELECT ${call}`,
      `SELECT 1\uff1b SELECT ${call}`,
      `SELECT 1 FORMAT TSV; SELECT ${call}`,
      `SELECT 1 FORMAT TSV\n; SELECT ${call} FORMAT TSV`,
    ];
    // Streamed formats and formats answered whole take different paths through the engine.
    for (const format of ['TSVRaw', 'Values', 'JSON']) {
      for (const text of corpus) {
        const answer = await send(text, '', format);
        assertNothingRan(`${JSON.stringify(text)} as ${format}`, answer);
        assert.ok([400, 403].includes(answer.status), `${JSON.stringify(text)} as ${format}: ${answer.status} ${answer.body}`);
      }
    }
    // The query parameter and the body are one text: a comment opened in one cannot hide the other.
    assertNothingRan('query + body', await send(`\n; SELECT ${call}`, 'SELECT 1 #'));
    assertNothingRan('query + body, heredoc', await send(`'$$; SELECT ${call}`, "SELECT $$ '"));
  });
});

describe('forbidden calls in one statement', () => {
  it('are refused in every position, spelling and clause', async () => {
    const forbidden = [...reads(canary.path), ...reads(path.join(stack.config.dataDir, 'session-secret'))];
    const shapes = (f: string) => [
      `SELECT ${f}`,
      `SELECT length(${f}) FROM holo.fx_rates`,
      `SELECT 1 WHERE 1 IN (SELECT length(${f}))`,
      `WITH ${f} AS x SELECT x`,
      `SELECT count() OVER (PARTITION BY ${f}) FROM holo.fx_rates`,
      `SELECT count() OVER w FROM holo.fx_rates WINDOW w AS (ORDER BY ${f})`,
      `SELECT * REPLACE (${f} AS rate) FROM holo.fx_rates`,
      `SELECT day FROM holo.fx_rates ORDER BY day WITH FILL INTERPOLATE (rate AS ${f})`,
      `SELECT arrayMap(x -> ${f}, [1])`,
      `SELECT 1 UNION ALL SELECT ${f}`,
      `SELECT (SELECT ${f})`,
      `SELECT ${f} FORMAT TSVRaw`,
    ];
    for (const f of forbidden) {
      for (const text of shapes(f)) {
        const answer = await send(text);
        assertNothingRan(text, answer);
        assert.ok([400, 403].includes(answer.status), `${text}: ${answer.status} ${answer.body}`);
      }
    }
    // A function applied by name to every column, and identifiers bound as parameters.
    assertNothingRan('APPLY', await send('SELECT * APPLY(file) FROM (SELECT $$' + canary.path + '$$ AS p)'));
    const bound = await fetch(
      `${stack.url}/clickhouse/?param_t=${encodeURIComponent('system.users')}&query=${encodeURIComponent('SELECT * FROM {t:Identifier}')}`,
      { headers: { 'X-ClickHouse-Key': key } },
    );
    assert.equal(bound.status, 403, await bound.text());
    const fnByParam = await fetch(
      `${stack.url}/clickhouse/?param_f=file&query=${encodeURIComponent(`SELECT arrayMap({f:Identifier}, ['${canary.path}'])`)}`,
      { headers: { 'X-ClickHouse-Key': key } },
    );
    assertNothingRan('a function bound as an identifier', { status: fnByParam.status, body: await fnByParam.text() });
    assert.equal(fnByParam.status, 403);
  });

  it('refuses table functions, dictionaries, settings and the engine outside the documented tables', async () => {
    for (const text of [
      `SELECT * FROM file('${canary.path}', 'LineAsString')`,
      `SELECT * FROM url('http://127.0.0.1:1/', 'LineAsString')`,
      `SELECT * FROM executable('cat ${canary.path}', 'LineAsString', 'x String')`,
      "SELECT * FROM remote('127.0.0.1', 'system', 'one')",
      'SELECT * FROM numbers(10)',
      "SELECT dictGet('d', 'a', 1)",
      "SELECT getSetting('readonly')",
      'SELECT * FROM system.users',
      'SELECT * FROM system.query_log',
      'SELECT * FROM holo.schema_migrations',
      'SELECT 1 WHERE 1 IN holo.schema_migrations',
      // clickhouse-local's default database overlays the file system: its tables are files.
      `SELECT * FROM default.\`${canary.path}\``,
      `SELECT toUInt8((SELECT * FROM default.\`${canary.path}\`))`,
      // Tables system.tables does not list are tables all the same; a scalar subquery is read
      // while a query is analysed, so it must be refused before that.
      'SELECT toUInt8((SELECT any(toString(tuple(*))) FROM system.user_directories))',
      'SELECT (SELECT count() FROM system.settings_changes)',
      // Aggregate functions named in a type string are calls all the same.
      "SELECT finalizeAggregation(CAST(unhex('00'), 'AggregateFunction(aggThrow(1), UInt8)'))",
      "SELECT CAST(unhex('00'), 'AggregateFunction(aggThrow(1), UInt8)')",
      "SELECT CAST('x', 'AggregateFunction(1, aggThrow, UInt8)')",
      "SELECT CAST('', 'AggregateFunction(`aggThrow`, UInt8)')",
      'SELECT uniqState(1)',
      // A statement's own SETTINGS before its FORMAT: refused before anything could apply them.
      'SELECT 1 SETTINGS readonly = 0 FORMAT TSV',
      'SELECT 1 SETTINGS readonly = 0',
      'SELECT 1 SETTINGS max_result_rows = 1000000000',
      'SELECT 1 FORMAT TSV SETTINGS max_threads = 1',
      'SHOW TABLES FROM holo WHERE length(name) > 0',
      `DESCRIBE (SELECT file('${canary.path}'))`,
      `EXPLAIN SELECT file('${canary.path}')`,
      'INSERT INTO holo.fx_rates VALUES (today(), $$XXX$$, 1, $$x$$)',
      'CREATE TABLE holo.x (a UInt8) ENGINE = Memory',
      'SYSTEM SHUTDOWN',
    ]) {
      const answer = await send(text);
      assertNothingRan(text, answer);
      assert.ok([400, 403].includes(answer.status), `${text}: ${answer.status} ${answer.body}`);
    }
  });
});

describe('the check itself', () => {
  it('stays small: aliases that double at each use, and long names, are refused before they grow', async () => {
    const name = 'c'.repeat(7600);
    let text = `WITH ${name} AS x0`;
    for (let i = 1; i <= 16; i++) text += `, (x${i - 1} + x${i - 1}) AS x${i}`;
    text += ` SELECT x16 FROM (SELECT dummy AS ${name} FROM system.one)`;
    const short = text.replaceAll(name, 'c');
    for (const t of [text, short]) {
      const answer = await send(t);
      assertNothingRan('doubling aliases', answer);
      assert.ok([400, 403].includes(answer.status), `${answer.status} ${answer.body.slice(0, 200)}`);
    }
  });

  it('tells no engine version and none of its own SQL', async () => {
    for (const t of ['SELECT 1; SELECT 2', 'SELECT 1 SETTINGS max_threads = 1', 'SELEC 1']) {
      const answer = await send(t);
      assert.doesNotMatch(answer.body, /version \d|formatQuery|holo-probe/, answer.body);
    }
  });
});

describe('INTO OUTFILE', () => {
  it('never writes a file, not even while the query is being checked', async () => {
    let n = 0;
    for (const tail of ['', ' APPEND', ' TRUNCATE', " COMPRESSION 'gzip'", ' AND STDOUT']) {
      for (const format of ['', ' FORMAT TSVRaw']) {
        const target = path.join(scratch, `out-${n++}`);
        const text = `SELECT 'x' INTO OUTFILE '${target}'${tail}${format}`;
        const answer = await send(text);
        assertNothingRan(text, answer, [target]);
        assert.equal(answer.status, 403, `${text}: ${answer.body}`);
      }
    }
    const hidden = path.join(scratch, 'hidden');
    assertNothingRan('after a comment', await send(`SELECT 1 # \n INTO OUTFILE '${hidden}'`), [hidden]);
    assertNothingRan('in the query parameter', await send(` INTO OUTFILE '${hidden}'`, 'SELECT 1'), [hidden]);
  });
});

describe('generated texts around a forbidden call (fast-check)', () => {
  // Pieces of ClickHouse's lexical grammar that a splitter or a checker could misread.
  const openers = [
    '#',
    '#!',
    '--',
    '/*',
    '/* /*',
    '*/',
    "'",
    '"',
    '`',
    '$$',
    '$t$',
    '\\',
    "''",
    ';',
    '\n',
    '\r\n',
    '\u2028',
    '\u00a0',
    '\t',
    '(',
    ')',
    ',',
  ];
  const spellings = ['file', 'FILE', 'FiLe', '`file`', '"file"'];
  const wrappers = [
    (c: string) => `SELECT ${c}`,
    (c: string) => `SELECT * FROM (SELECT ${c} AS x)`,
    (c: string) => `SELECT count() OVER (PARTITION BY ${c}) FROM holo.fx_rates`,
    (c: string) => `SELECT arrayMap(x -> ${c}, [1])`,
    (c: string) => `SELECT 1 WHERE 1 IN (SELECT length(${c}))`,
    (c: string) => `SELECT ${c} INTO OUTFILE '${path.join(scratch, 'prop-out')}'`,
  ];

  it('no arrangement runs the call, writes a file or answers 500', async () => {
    const text = fc
      .record({
        before: fc.array(fc.constantFrom(...openers), { maxLength: 4 }),
        between: fc.array(fc.constantFrom(...openers), { maxLength: 4 }),
        after: fc.array(fc.constantFrom(...openers), { maxLength: 4 }),
        spelling: fc.constantFrom(...spellings),
        wrap: fc.constantFrom(...wrappers),
        lead: fc.constantFrom('SELECT 1', "SELECT 'a'", 'SELECT $$x$$', 'SELECT 1 FORMAT TSV', ''),
      })
      .map(({ before, between, after, spelling, wrap, lead }) => {
        const call = `${spelling}('${canary.path}')`;
        return `${lead} ${before.join(' ')}${between.join('')} ${wrap(call)} ${after.join(' ')}`;
      });
    await fc.assert(
      fc.asyncProperty(text, fc.constantFrom('TSVRaw', 'Values'), async (t, format) => {
        assertNothingRan(JSON.stringify(t), await send(t, '', format), [path.join(scratch, 'prop-out')]);
      }),
      { numRuns: 150 },
    );
  });

  it('what the parser accepts runs as its normal form: quoting never changes what a name is', async () => {
    // Any text whose statement reads only documented tables still answers; an undocumented one never.
    const table = fc.constantFrom(
      'holo.fx_rates',
      '`holo`.`fx_rates`',
      'holo."fx_rates"',
      'system.users',
      '`system`.`users`',
      'holo.schema_migrations',
    );
    await fc.assert(
      fc.asyncProperty(table, fc.constantFrom('', ' ', '\n', ' /* c */ ', ' # c\n'), async (t, gap) => {
        const answer = await send(`SELECT count()${gap}FROM ${t}${gap}`);
        const documented = /fx_rates/.test(t);
        assert.equal(answer.status, documented ? 200 : 403, `${t}: ${answer.body}`);
      }),
      { numRuns: 30 },
    );
  });
});
