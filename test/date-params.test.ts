// Every date-time and date parameter of every route (issue 34 §3), found in /openapi.json: any
// RFC 3339 value, and values around its edges (offsets up to ±23:59, years 0000 and 9999, leap
// seconds, fractions to the nanosecond, lower-case t and z, impossible days), is either understood
// or a 422 naming the parameter; never a 500. Values drawn by fast-check, asked as an administrator
// with an Enterprise key so that access never answers first.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { accountWithKey, type KeyedAccount } from './support/accounts.js';
import { callAs } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
let admin: KeyedAccount;

type Scalar = string | number | boolean;
type Schema = { type?: string; format?: string; enum?: Scalar[]; minimum?: number; example?: Scalar; default?: Scalar; pattern?: string };
type Parameter = { name: string; in: string; required?: boolean; schema?: Schema };
type DateParameter = { method: string; path: string; param: Parameter; others: Parameter[] };

/** Every (route, parameter) whose schema is a date-time or a date, with the route's other parameters. */
function dateParameters(doc: { paths: Record<string, Record<string, { parameters?: Parameter[] }>> }): DateParameter[] {
  const found: DateParameter[] = [];
  for (const [path, ops] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(ops)) {
      const params = op.parameters ?? [];
      for (const param of params)
        if (param.schema?.format === 'date-time' || param.schema?.format === 'date')
          found.push({ method, path, param, others: params.filter((p) => p !== param) });
    }
  return found;
}

/** A value the document allows for a parameter the test does not vary. */
function plainValue(p: Parameter): string {
  const s = p.schema ?? {};
  if (s.example !== undefined) return String(s.example);
  if (s.default !== undefined) return String(s.default);
  if (s.enum?.length) return String(s.enum[0]);
  if (s.type === 'integer' || s.type === 'number') return String(Math.max(1, s.minimum ?? 1));
  if (s.format === 'date') return '2026-01-01';
  if (s.format === 'date-time') return '2026-01-01T00:00:00Z';
  return 'pokemon';
}

function url(d: DateParameter, value: string): string {
  let path = d.path;
  const query = new URLSearchParams();
  for (const p of [...d.others, d.param]) {
    const v = p === d.param ? value : plainValue(p);
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(v));
    else if (p.in === 'query' && (p.required || p === d.param)) query.set(p.name, v);
  }
  return `${path}?${query.toString()}`;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const date = fc
  .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
  .map(([y, m, d]) => `${pad(y, 4)}-${pad(m)}-${pad(d)}`);
const offset = fc.oneof(
  fc.constantFrom('Z', 'z', '+00:00', '-00:00'),
  fc
    .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([sign, h, m]) => `${sign}${pad(h)}:${pad(m)}`),
);
const fraction = fc.oneof(
  fc.constant(''),
  fc.integer({ min: 1, max: 9 }).map((n) => `.${'123456789'.slice(0, n)}`),
);
const dateTime = fc
  .tuple(
    date,
    fc.constantFrom('T', 't'),
    fc.integer({ min: 0, max: 24 }),
    fc.integer({ min: 0, max: 59 }),
    fc.integer({ min: 0, max: 60 }),
    fraction,
    offset,
  )
  .map(([d, t, h, mi, s, f, o]) => `${d}${t}${pad(h)}:${pad(mi)}:${pad(s)}${f}${o}`);

/** The answer is understood or a 422 naming the parameter; what went wrong otherwise. */
async function check(d: DateParameter, value: string): Promise<void> {
  const res = await callAs(stack, admin, d.method.toUpperCase(), url(d, value));
  assert.notEqual(res.status, 500, `${d.method} ${url(d, value)}: 500 ${JSON.stringify(res.body)}`);
  if (res.status === 422 && Array.isArray(res.body.detail))
    assert.ok(
      res.body.detail.some((e: { loc: unknown[] }) => e.loc.includes(d.param.name)),
      `${d.method} ${url(d, value)}: 422 without naming ${d.param.name}: ${JSON.stringify(res.body)}`,
    );
}

before(async () => {
  stack = await startStack();
  admin = await accountWithKey(stack, 'datechecker', 'enterprise', { admin: true });
});
after(async () => {
  await stack?.close();
});

describe('date-time and date parameters', () => {
  it('the example: updated_after with an offset beyond PostgreSQL’s (+19:40) is understood, not a 500', async () => {
    const res = await callAs(stack, null, 'GET', `/api/v2/sets/1?updated_after=${encodeURIComponent('2026-01-01T00:00:00+19:40')}`);
    assert.ok(res.status === 200 || res.status === 404, `${res.status} ${JSON.stringify(res.body)}`);
  });

  it('every route’s date-time and date parameters: understood or a 422 naming them, never a 500 (fast-check)', async () => {
    const doc = (await callAs(stack, null, 'GET', '/openapi.json')).body;
    const params = dateParameters(doc);
    assert.ok(params.length >= 5, `the document's date parameters: ${params.map((d) => `${d.path} ${d.param.name}`).join(', ')}`);
    // The range a date parameter takes is stated (as a pattern: OpenAPI has no bounds for a date).
    for (const d of params)
      if (d.param.schema!.format === 'date') assert.ok(d.param.schema!.pattern, `${d.path} ${d.param.name} states its range`);
    for (const d of params) {
      const values = d.param.schema!.format === 'date' ? date : dateTime;
      const edges =
        d.param.schema!.format === 'date'
          ? ['0000-01-01', '9999-12-31', '2026-02-30', '2026-13-01']
          : [
              '2026-01-01T00:00:00+19:40',
              '0000-01-01T00:00:00+01:00',
              '9999-12-31T23:59:59-23:59',
              '2026-06-30T23:59:60Z',
              '2026-01-01T24:00:00Z',
            ];
      for (const edge of edges) await check(d, edge);
      await fc.assert(
        fc.asyncProperty(values, (value) => check(d, value)),
        { numRuns: 40 },
      );
    }
  });
});
