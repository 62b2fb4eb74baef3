// Every place that reads a request's text with rules of its own (issue 31, part 6), driven with
// random and hostile input by fast-check: the pokemontcg.io q grammar that compiles to SQL, the
// collection and stock CSV imports, multipart uploads, deck text, the change feeds' cursors and the
// legacy name searches. Each property states what must hold for every input: a clear 4xx in the
// spec's error shape and never a 500, no row outside the filter or the caller's own data, and no
// part of the text inside the SQL (values are bound parameters). Pure functions are checked
// directly; endpoints through HTTP against a real stack. Runs are few enough (40–200 a property)
// that the file takes about a minute; a failure prints the seed and the shrunk input to replay.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { parseQ, QSyntaxError, type QNode } from '../schemas/pokemontcgQuery.js';
import { compileQ, QFieldError } from '../sql/pokemontcg.js';
import { parseDeckText } from '../api/decks/deckText.js';
import { DomainError } from '../schemas/errors.js';
import { DECK_LIMITS } from '../schemas/decks.js';
import { startStack, type Stack } from './support/stack.js';
import { accountWithKey, type KeyedAccount } from './support/accounts.js';

type Json = any;
// A failing property reports the assertion that failed, not only the shrunk input.
fc.configureGlobal({ includeErrorInReport: true });
let stack: Stack;
let alice: KeyedAccount;
let bob: KeyedAccount;
let cardIds: number[] = [];
let productId: string;

before(async () => {
  stack = await startStack();
  alice = await accountWithKey(stack, 'untrusted_alice', 'business');
  bob = await accountWithKey(stack, 'untrusted_bob', 'business');
  const pool = stack.stores.pg.pool;
  cardIds = (await pool.query<{ id: number }>('SELECT id FROM cards ORDER BY id LIMIT 5')).rows.map((r) => r.id);
  // One Cardmarket product the stock import resolves (the demo catalogue carries none of its own).
  productId = '987654321';
  await pool.query(`INSERT INTO cross_refs (card_id, ref_key, ref_value) VALUES ($1, 'eu_marketplace_product_id', $2)`, [
    cardIds[0],
    productId,
  ]);
  // Bob's own data, which nothing Alice sends may touch.
  const added = await send('POST', '/collection/add', bob, JSON.stringify({ card_id: cardIds[1], quantity: 3 }), {
    'Content-Type': 'application/json',
  });
  assert.equal(added.status, 201, JSON.stringify(added.body));
});
after(async () => {
  // No input anywhere in this file may have reached the 500 path.
  const unhandled = stack?.logLines.filter((l) => l.includes('unhandled error')) ?? [];
  await stack?.close();
  assert.deepEqual(unhandled, []);
});

async function send(method: string, path: string, who: KeyedAccount | null, body?: string | Buffer, headers: Record<string, string> = {}) {
  const res = await fetch(stack.url + path, { method, headers: { ...(who?.headers ?? {}), ...headers }, body });
  const text = await res.text();
  let parsed: Json = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed };
}

/** Every byte percent-encoded, so any string (lone surrogates too) or raw bytes reach the query. */
const pct = (s: string | Uint8Array) => [...Buffer.from(s as string)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

/** A 4xx in the spec's shape: 422 `{detail: [{loc, msg, type}]}`, any other `{detail}`. */
function assertClientError(r: { status: number; body: Json }, allowed: number[], what: string) {
  assert.ok(allowed.includes(r.status), `${what}: ${r.status} ${JSON.stringify(r.body)?.slice(0, 300)}`);
  if (r.status === 422) {
    assert.ok(Array.isArray(r.body?.detail) && r.body.detail.length > 0, what);
    for (const i of r.body.detail) {
      assert.ok(Array.isArray(i.loc) && typeof i.msg === 'string' && typeof i.type === 'string', what);
      // The document's loc: names and indexes only.
      assert.ok(
        i.loc.every((part: unknown) => typeof part === 'string' || typeof part === 'number'),
        `${what}: loc ${JSON.stringify(i.loc)}`,
      );
    }
  } else assert.equal(typeof r.body?.detail, 'string', what);
}

// Text an attacker would try: SQL and grammar metacharacters, quotes, comments, unicode, NUL.
const HOSTILE = [
  "'",
  '"',
  '\\',
  ';',
  '--',
  '/*',
  '*/',
  '$1',
  '$$',
  '%',
  '_',
  '\u0000',
  '\u0007',
  '\u202e',
  '\ufeff',
  'é',
  '𝔘',
  '\ud800',
  ' OR 1=1',
  "' OR '1'='1",
  '); DROP TABLE cards; --',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ':',
  '!',
  '-',
  '*',
  '?',
  'AND',
  'OR',
  'NOT',
  'TO',
  '\r\n',
  '\t',
  ',',
];
const hostile = fc.oneof(
  fc.constantFrom(...HOSTILE),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.stringMatching(/^[a-z0-9.]{1,10}$/),
);
const hostileText = (maxLength: number) => fc.array(hostile, { maxLength }).map((parts) => parts.join(''));

// The q grammar ------------------------------------------------------------------------------------

const FIELDS = [
  'name',
  'hp',
  'number',
  'set.id',
  'subtypes',
  'attacks.name',
  'legalities.standard',
  'tcgplayer.prices.holofoil.market',
  'nofield',
  'a.b.c',
];
const qValue = fc.oneof(
  hostile.filter((s) => s.length > 0),
  fc.stringMatching(/^-?\d{1,30}(\.\d{1,30})?$/),
  hostile.map((s) => `"${s.replaceAll('"', '\\"')}"`),
  fc
    .tuple(fc.constantFrom('[', '{'), hostile, hostile, fc.constantFrom(']', '}'))
    .map(([o, lo, hi, c]) => `${o}${lo || '*'} TO ${hi || '*'}${c}`),
);
const qTerm = fc.tuple(fc.constantFrom('', '!', '-', 'NOT '), fc.constantFrom(...FIELDS), qValue).map(([p, f, v]) => `${p}${f}:${v}`);
/** q texts shaped like the grammar (terms, AND/OR, groups, some unbalanced) with hostile values. */
const qText = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .array(fc.oneof(qTerm, fc.constantFrom('AND', 'OR', 'NOT', '(', ')', '-', '(((', ')))')), { minLength: 1, maxLength: 12 })
      .map((t) => t.join(' ')),
  },
  { weight: 1, arbitrary: hostileText(20) },
  { weight: 1, arbitrary: fc.nat({ max: 1100 }).map((n) => `name:${'a'.repeat(n)}`) },
  { weight: 1, arbitrary: fc.nat({ max: 40 }).map((n) => `${'('.repeat(n)}name:a${')'.repeat(n)}`) },
  { weight: 1, arbitrary: fc.nat({ max: 330 }).map((n) => `${'NOT '.repeat(n)}name:a`) },
);

/** The same tree with every value replaced by a plain one of the same kind (number or not, wildcard or not). */
function canonical(node: QNode): QNode {
  const NUMBER = /^-?\d+(\.\d+)?$/;
  const plain = (s: string) => (NUMBER.test(s) ? '1' : 'a');
  switch (node.kind) {
    case 'and':
    case 'or':
      return { ...node, nodes: node.nodes.map(canonical) };
    case 'not':
      return { ...node, node: canonical(node.node) };
    case 'range':
      return { ...node, lo: node.lo === null ? null : plain(node.lo), hi: node.hi === null ? null : plain(node.hi) };
    default:
      return { ...node, value: { type: node.value.type, text: node.value.type === 'wildcard' ? 'a*' : plain(node.value.text) } };
  }
}

describe('pokemontcg.io q grammar: ours, so an allow-list that compiles to fixed SQL', () => {
  it('parses any text into a tree or a QSyntaxError with a position, nothing else', () => {
    fc.assert(
      fc.property(fc.oneof(qText, fc.string({ unit: 'binary', maxLength: 1200 })), (q) => {
        try {
          parseQ(q);
        } catch (err) {
          assert.ok(err instanceof QSyntaxError, `${q}: ${String(err)}`);
          assert.match(err.message, /at character \d+$/);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('puts no character of a value into the SQL: hostile values compile to the very text plain ones do', () => {
    fc.assert(
      fc.property(qText, fc.constantFrom('card' as const, 'set' as const), (q, scope) => {
        let tree: QNode;
        try {
          tree = parseQ(q);
        } catch {
          return;
        }
        let compiled: ReturnType<typeof compileQ>;
        try {
          compiled = compileQ(tree, scope, 3);
        } catch (err) {
          // Fields come from a fixed map: anything else is a QFieldError (a 422), for plain values too.
          assert.ok(err instanceof QFieldError, String(err));
          return;
        }
        const plain = compileQ(canonical(tree), scope, 3);
        assert.equal(compiled.where, plain.where, q);
        assert.equal(compiled.params.length, plain.params.length);
        // Every placeholder names a parameter and every parameter is used.
        const used = new Set([...compiled.where.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
        assert.deepEqual(
          [...used].sort((a, b) => a - b),
          compiled.params.map((_, i) => i + 3),
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('answers any q over HTTP with 200 or a 422 naming q, never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(qText.map(pct), fc.uint8Array({ maxLength: 40 }).map(pct)),
        fc.constantFrom('cards', 'sets'),
        async (q, what) => {
          const r = await send('GET', `/compat/pokemontcg/v2/${what}?q=${q}&pageSize=5&select=id`, null);
          if (r.status === 200) assert.ok(r.body.data.length <= 5);
          else {
            assertClientError(r, [422], q);
            assert.deepEqual(r.body.detail[0].loc, ['query', 'q']);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a NUL or another control character in q is a 422, for cards and sets', async () => {
    for (const what of ['cards', 'sets'])
      for (const q of ['name:a\u0000b', 'name:"\u0000"', 'set.releaseDate:[\u0000 TO *]', 'name:\u001b[31m']) {
        const r = await send('GET', `/compat/pokemontcg/v2/${what}?q=${pct(q)}`, null);
        assertClientError(r, [422], `${what} ${JSON.stringify(q)}`);
        assert.match(r.body.detail[0].msg, /control characters/);
      }
  });

  it('a range returns only cards inside it, however many digits its bound has', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(40, 50, 60, 70, 80, 90, 100, 120), fc.integer({ min: 1, max: 40 }), async (hp, zeros) => {
        const lo = `${hp}.${'0'.repeat(zeros)}1`;
        const r = await send('GET', `/compat/pokemontcg/v2/cards?q=${pct(`hp:[${lo} TO *]`)}&pageSize=250&select=id,hp`, null);
        assert.equal(r.status, 200, JSON.stringify(r.body));
        for (const c of r.body.data) assert.ok(Number(c.hp) > hp, `hp:[${lo} TO *] returned ${c.id} with hp ${c.hp}`);
      }),
      { numRuns: 40 },
    );
  });

  it('a word search returns only cards holding that word', async () => {
    const words = (v: string) =>
      v
        .toLowerCase()
        .normalize('NFD')
        .replace(/\p{M}/gu, '')
        .split(/[^\p{L}\p{N}]+/u);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('charizard', 'pikachu', 'energy', 'ex', 'dark', 'mew', 'trainer'), async (w) => {
        const r = await send('GET', `/compat/pokemontcg/v2/cards?q=${pct(`name:${w}`)}&pageSize=250&select=id,name`, null);
        assert.equal(r.status, 200);
        for (const c of r.body.data) assert.ok(words(c.name).includes(w), `name:${w} returned ${c.name}`);
      }),
      { numRuns: 7 },
    );
  });
});

// Cursors and instants of the change feeds -----------------------------------------------------------

describe('change feed cursors', () => {
  const feeds = ['/api/v2/price-changes', '/api/v2/id-changes'];
  it('answers any cursor with a page or a 422 naming the cursor, never a 500', async () => {
    const digits = (n: number) => fc.stringMatching(new RegExp(`^\\d{1,${n}}$`));
    const edge = fc.constantFrom(
      '18446744073709551615',
      '18446744073709551616',
      '9223372036854775807',
      '9223372036854775808',
      '99999999999999999999',
      '0',
    );
    const cursor = fc.oneof(
      fc.tuple(fc.oneof(digits(20), edge), fc.oneof(digits(19), edge)).map(([x, s]) => `${x}.${s}`),
      hostileText(6).map(pct),
      fc.uint8Array({ maxLength: 24 }).map(pct),
    );
    await fc.assert(
      fc.asyncProperty(cursor, fc.constantFrom(...feeds), async (c, feed) => {
        const r = await send('GET', `${feed}?cursor=${c}&size=5`, alice);
        if (r.status === 200) {
          assert.ok(r.body.items.length <= 5);
          assert.match(r.body.next_cursor, /^\d+\.\d+$/);
        } else {
          assertClientError(r, [422], `${feed} cursor=${c}`);
          assert.deepEqual(r.body.detail[0].loc, ['query', 'cursor']);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("reads every cursor the document's pattern allows (no schema-valid cursor refused)", async () => {
    const openapi = (await stack.json('/openapi.json')).body;
    const cursorParam = openapi.paths['/api/v2/id-changes']?.get?.parameters?.find((p: { name: string }) => p.name === 'cursor');
    assert.ok(cursorParam?.schema?.pattern, 'the document states the cursor pattern');
    const documented = new RegExp(cursorParam.schema.pattern);
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(documented), fc.constantFrom(...feeds), async (c, feed) => {
        const r = await send('GET', `${feed}?cursor=${c}&size=2`, alice);
        assert.equal(r.status, 200, `${feed} cursor=${c}: ${JSON.stringify(r.body)}`);
      }),
      {
        numRuns: 60,
        examples: [
          ['9999999999999999999.999999999999999999', feeds[0]!],
          ['0000000000000000000.000000000000000000', feeds[1]!],
        ],
      },
    );
  });

  it('answers any RFC 3339 instant in updated_after (any offset, any fraction, year 0000 included) with a page or a 422', async () => {
    // zod admits offsets to ±23:59; PostgreSQL only to ±15:59: each must be moved to UTC first.
    const offset = fc.oneof(
      fc.constant('Z'),
      fc
        .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
        .map(([sign, h, m]) => `${sign}${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
    );
    const fraction = fc.oneof(fc.constant(''), fc.stringMatching(/^\.\d{1,9}$/));
    const instant = fc
      .tuple(
        fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
        fraction,
        offset,
      )
      .map(([d, f, o]) => `${d.toISOString().slice(0, 19)}${f}${o}`);
    const game = await send('GET', '/api/v2/games/pokemon?size=1', alice);
    assert.equal(game.status, 200);
    const setId = (game.body as { sets_list: { id: number }[] }).sets_list[0]!.id;
    const paths = [...feeds, '/api/v2/games/pokemon', `/api/v2/sets/${setId}`];
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(instant, fc.constantFrom('0000-06-01T00:00:00Z', '2026-01-01T00:00:00+19:40', '0001-01-01T00:00:00+01:00')),
        fc.constantFrom(...paths),
        async (u, path) => {
          const r = await send('GET', `${path}?updated_after=${pct(u)}&size=1`, alice);
          if (r.status >= 300) {
            assertClientError(r, [422], `${path} updated_after=${u}`);
            assert.deepEqual(r.body.detail[0].loc, ['query', 'updated_after']);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

// Deck text --------------------------------------------------------------------------------------------

const deckLine = fc.oneof(
  fc
    .tuple(
      fc.integer({ min: -5, max: 10_000 }),
      fc.constantFrom('', 'x', ' x'),
      hostileText(4),
      fc.constantFrom('', ' (BS)', ' [C21] 4', ' ((('),
    )
    .map(([n, x, name, set]) => `${n}${x} ${name}${set}`),
  fc.constantFrom('Sideboard', 'Commander:', 'main', '# comment', '// comment', '', '   '),
  hostileText(6),
);

describe('deck text import', () => {
  it('reads any text into card lines of 1 to 999 copies and lines it names as unreadable', () => {
    fc.assert(
      fc.property(fc.array(deckLine, { maxLength: 30 }), fc.constantFrom('\n', '\r\n'), (lines, eol) => {
        const text = lines.join(eol);
        const { cards, unreadable } = parseDeckText(text);
        const count = text.split(/\r?\n/).length;
        for (const c of cards) {
          assert.ok(c.quantity >= 1 && c.quantity <= DECK_LIMITS.maxQuantity);
          assert.ok(c.name.length > 0 && c.line >= 1 && c.line <= count);
        }
        for (const u of unreadable) assert.ok(u.line >= 1 && u.line <= count);
      }),
      { numRuns: 1000 },
    );
    assert.throws(() => parseDeckText('\n'.repeat(DECK_LIMITS.importLines)), DomainError);
  });

  it('answers any pasted text with the deck made (its owner’s alone) or a 4xx, never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(deckLine, { minLength: 1, maxLength: 4 }), async (lines) => {
        const text = lines.join('\n');
        const r = await send('POST', '/decks/import', alice, JSON.stringify({ text, tcg_slug: 'pokemon' }), {
          'Content-Type': 'application/json',
        });
        if (r.status !== 201) return assertClientError(r, [409, 422], JSON.stringify(text));
        const other = await send('GET', `/decks/${r.body.deck.id}`, bob);
        assert.equal(other.status, 404, 'another user reads a private deck');
        await send('DELETE', `/decks/${r.body.deck.id}`, alice);
      }),
      { numRuns: 40 },
    );
  });

  it('a NUL in a deck line is a 422, not a 500', async () => {
    const r = await send('POST', '/decks/import', alice, JSON.stringify({ text: '4 Light\u0000ning Bolt', tcg_slug: 'pokemon' }), {
      'Content-Type': 'application/json',
    });
    assertClientError(r, [422], 'NUL');
    assert.deepEqual(r.body.detail[0].loc, ['body', 'text']);
  });
});

// Multipart uploads and CSV imports -----------------------------------------------------------------

const BOUNDARY = 'holoBoundary7MA4YWxkTrZu0gW';
function multipart(content: string | Buffer, opts: { field?: string; boundary?: string; extra?: string } = {}) {
  const b = opts.boundary ?? BOUNDARY;
  const body = Buffer.concat([
    Buffer.from(opts.extra ?? ''),
    Buffer.from(
      `--${b}\r\nContent-Disposition: form-data; name="${opts.field ?? 'file'}"; filename="f.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    Buffer.from(content),
    Buffer.from(`\r\n--${b}--\r\n`),
  ]);
  return { body, headers: { 'Content-Type': `multipart/form-data; boundary=${b}` } };
}

const collectionOf = async (who: KeyedAccount) =>
  ((await send('GET', '/collection?limit=100', who)).body.items as Json[]).map((e) => [e.card_id, e.quantity, e.condition]);

describe('multipart uploads (busboy)', () => {
  // An error event nobody listens to ends a production process; under the test runner it is
  // caught instead, so it is collected here and every upload must leave none.
  const uncaught: unknown[] = [];
  const collect = (err: unknown) => uncaught.push(err);
  before(() => process.on('uncaughtException', collect));
  after(() => process.off('uncaughtException', collect));

  it('answers a truncated, garbled or mislabelled multipart body with a 4xx and keeps serving', async () => {
    const good = multipart('card_id,quantity,condition,price_paid\n1,1,NM,\n').body;
    const body = fc.oneof(
      fc.nat({ max: good.length }).map((n) => ({ bytes: good.subarray(0, n), type: `multipart/form-data; boundary=${BOUNDARY}` })),
      fc.tuple(fc.nat({ max: good.length - 1 }), fc.uint8Array({ minLength: 1, maxLength: 8 })).map(([at, junk]) => ({
        bytes: Buffer.concat([good.subarray(0, at), Buffer.from(junk), good.subarray(at)]),
        type: `multipart/form-data; boundary=${BOUNDARY}`,
      })),
      fc
        .tuple(
          fc.uint8Array({ maxLength: 200 }),
          fc.constantFrom(
            'multipart/form-data',
            `multipart/form-data; boundary=${BOUNDARY}`,
            'multipart/form-data; boundary=',
            `multipart/form-data; boundary="${'x'.repeat(71)}"`,
            'multipart/mixed; boundary=a',
            'text/csv',
          ),
        )
        .map(([bytes, type]) => ({ bytes: Buffer.from(bytes), type })),
      hostileText(6).map((name) => ({
        bytes: multipart('x', { field: name.replaceAll('"', '') }).body,
        type: `multipart/form-data; boundary=${BOUNDARY}`,
      })),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom('/collection/import', '/seller/stock/import'), async ({ bytes, type }, path) => {
        const r = await send('POST', path, bob, bytes, { 'Content-Type': type });
        // 403: Bob is no seller. Anything in the spec's 4xx range, but never a 500 or a dead server.
        if (r.status >= 300) assertClientError(r, [400, 403, 413, 415, 422], `${path} ${type} ${bytes.length} bytes`);
        assert.equal((await send('GET', '/api/health', null)).status, 200);
        assert.deepEqual(uncaught.map(String), []);
      }),
      { numRuns: 150 },
    );
  });

  it('a part without a name is a 422 at the body, in the document’s shape (npm run fuzz, seed 1010564528: loc ["body", null])', async () => {
    const field = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name=""\r\n\r\nnull\r\n--${BOUNDARY}--\r\n`);
    const headers = { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` };
    for (const path of ['/collection/import', '/me/avatar'])
      for (const [what, body] of [
        ['a field', field],
        ['a file', multipart('null', { field: '' }).body],
      ] as const) {
        const r = await send('POST', path, bob, body, headers);
        assert.deepEqual(
          [r.status, r.body.detail],
          [422, [{ loc: ['body'], msg: 'every part needs a name', type: 'value_error.missing' }]],
          `${path}, ${what}`,
        );
      }
  });

  it('a body cut off inside its file part is a 400, and the server still answers', async () => {
    const { body, headers } = multipart('card_id,quantity,condition,price_paid\n1,1,NM,\n');
    const r = await send('POST', '/collection/import', alice, body.subarray(0, body.indexOf('price_paid')), headers);
    assertClientError(r, [400], 'truncated');
    assert.equal((await send('GET', '/api/health', null)).status, 200);
    assert.deepEqual(uncaught.map(String), []);
  });
});

const HEADERS = [
  'card_id',
  'quantity',
  'condition',
  'price_paid',
  'variant',
  'graded',
  'grading_company',
  'grade',
  '__proto__',
  'constructor',
  '',
];
const csvCell = fc.oneof(
  hostile,
  fc.stringMatching(/^\d{1,12}$/),
  fc.constantFrom('NM', 'LP', 'PSA', 'true', '9.5', '1,50', '"', '""', '"a"b"'),
);
/** CSVs shaped like an import, often malformed: random headers and cells, quotes, delimiters, BOM, NUL. */
const csvFile = fc
  .tuple(
    fc.constantFrom(',', ';'),
    fc.uniqueArray(fc.constantFrom(...HEADERS), { minLength: 0, maxLength: 9 }),
    fc.boolean(),
    fc.array(fc.array(csvCell, { maxLength: 10 }), { maxLength: 6 }),
    fc.constantFrom('\n', '\r\n', '\r'),
    fc.boolean(),
  )
  .map(
    ([sep, header, dup, rows, eol, bom]) =>
      (bom ? '\ufeff' : '') + [(dup ? [...header, header[0] ?? 'card_id'] : header).join(sep), ...rows.map((r) => r.join(sep))].join(eol),
  );

describe('collection CSV import (csv-parse)', () => {
  it('answers any file with the import done or a 422 naming lines, and never touches another user’s collection', async () => {
    const bobs = await collectionOf(bob);
    const ids = fc.constantFrom(...cardIds.map(String));
    const plausible = fc
      .array(
        fc.tuple(
          ids,
          fc.constantFrom('1', '2', '0', '-1', '999999'),
          fc.constantFrom('NM', 'lp', 'XX', ''),
          fc.constantFrom('', '1.5', '1e3', 'NaN'),
        ),
        {
          minLength: 1,
          maxLength: 4,
        },
      )
      .map((rows) => ['card_id,quantity,condition,price_paid', ...rows.map((r) => r.join(','))].join('\n'));
    await fc.assert(
      fc.asyncProperty(fc.oneof(csvFile, plausible), async (csv) => {
        const { body, headers } = multipart(csv);
        const r = await send('POST', '/collection/import', alice, body, headers);
        if (r.status < 300) assert.equal(r.body.ok, true);
        else {
          assertClientError(r, [422], JSON.stringify(csv));
          // A line of the file, or the file itself (empty).
          for (const i of r.body.detail) assert.match(i.loc.join('/'), /^body\/file(\/line \d+)?$/);
        }
      }),
      { numRuns: 150 },
    );
    assert.deepEqual(await collectionOf(bob), bobs, 'Alice’s imports changed Bob’s collection');
  });

  it('a column named twice and a NUL in a field are each a 422 at their line', async () => {
    const twice = multipart(`card_id,quantity,condition,price_paid,card_id\n${cardIds[0]},1,NM,,${cardIds[1]}\n`);
    let r = await send('POST', '/collection/import', alice, twice.body, twice.headers);
    assertClientError(r, [422], 'duplicate column');
    assert.match(r.body.detail[0].msg, /card_id more than once/);
    const nul = multipart(`card_id,quantity,condition,price_paid,variant\n${cardIds[0]},1,NM,,a\u0000b\n`);
    r = await send('POST', '/collection/import', alice, nul.body, nul.headers);
    assertClientError(r, [422], 'NUL');
    assert.deepEqual(r.body.detail[0].loc, ['body', 'file', 'line 2']);
  });
});

describe('stock import (csv-parse)', () => {
  it('answers any Cardmarket export with the listings made or a 422 naming lines, never a 500', async () => {
    const become = await send('POST', '/seller/become', alice, JSON.stringify({ display_name: 'Alice', country: 'DE' }), {
      'Content-Type': 'application/json',
    });
    assert.ok([200, 201].includes(become.status), JSON.stringify(become.body));
    const article = fc
      .tuple(
        fc.oneof(fc.constant(productId), fc.stringMatching(/^\d{1,10}$/), hostile),
        fc.constantFrom('1,00', '2.50', '0', '-1', '1e3', '12345678'),
        fc.constantFrom('NM', 'mt', 'PO', 'XX'),
        fc.constantFrom('1', '0', '10001', 'x'),
        hostileText(5),
      )
      .map((cells) => cells.map((c) => `"${c.replaceAll('"', '""')}"`).join(';'));
    const file = fc.oneof(
      fc.array(article, { minLength: 1, maxLength: 3 }).map((rows) => ['idProduct;Price;Condition;Amount;Comments', ...rows].join('\n')),
      csvFile,
    );
    await fc.assert(
      fc.asyncProperty(file, async (csv) => {
        const { body, headers } = multipart(csv);
        const r = await send('POST', '/seller/stock/import', alice, body, headers);
        if (r.status >= 300) assertClientError(r, [422], JSON.stringify(csv));
      }),
      { numRuns: 120 },
    );
  });

  it('a NUL in Comments is a 422 at its line, not a 500', async () => {
    const { body, headers } = multipart(`idProduct;Price;Condition;Amount;Comments\n${productId};1,00;NM;1;a\u0000b\n`);
    const r = await send('POST', '/seller/stock/import', alice, body, headers);
    assertClientError(r, [422], 'NUL comment');
    assert.deepEqual(r.body.detail[0].loc, ['body', 'file', 'line 2']);
  });
});

// Legacy name searches ------------------------------------------------------------------------------

describe('legacy name searches: the query is text, not a LIKE pattern', () => {
  it('a card listing filtered by name holds only cards whose name contains it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.stringMatching(/^[a-z%_\\ ]{1,4}$/).filter((s) => s.trim().length > 0),
        async (name) => {
          const r = await send('GET', `/pokemon/cards?name=${pct(name)}&limit=100`, null);
          if (r.status !== 200) return assertClientError(r, [422], name);
          for (const c of r.body.items) assert.ok(c.name.toLowerCase().includes(name.trim()), `name=${name} returned ${c.name}`);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('searching for % or _ finds no card, since no card name holds one', async () => {
    for (const q of ['%', '_', '%%', '_%_']) {
      const r = await send('GET', `/api/search?q=${pct(q)}`, null);
      assert.equal(r.status, 200);
      assert.equal(r.body.total, 0, `q=${q} found ${r.body.total} cards`);
    }
  });
});
