// What a data team's SQL text is, and whether it may run: decided by ClickHouse's own parser, with
// nothing of the text executed before it is allowed (issue 31: a hand-written statement splitter
// let a second statement through, and EXPLAIN of the raw text ran its INTO OUTFILE).
//
// 1. formatQuery() reads the text as a bound parameter, so none of it runs: one statement or a
//    syntax error (the parser refuses multi-statements), returned in normal form.
// 2. Output clauses: the normal form with ` INTO OUTFILE` appended parses only when the statement
//    has no INTO OUTFILE, FORMAT or trailing SETTINGS of its own. A trailing FORMAT is taken off
//    only when the parser confirms it (the rest plus `FORMAT <name>` gives back the same normal
//    form, and the rest has no output clause); anything else with output clauses is refused.
// 3. DESCRIBE, EXISTS and SHOW are allowed as whole statements from a fixed list (their trees hide
//    parts, e.g. SHOW TABLES' WHERE), compared in normal form.
// 4. A SELECT's unresolved query tree (EXPLAIN QUERY TREE run_passes = 0, safe to run once step 2
//    left no output clause) lists every function, table function, identifier and setting without
//    analysing anything. Allowed: functions on the allow-list
//    (sql/stores/clickhouseReaderFunctions.ts), identifiers that name no table but a documented one, no
//    table function but the documented parameterised views, no SETTINGS, no node or section kind
//    outside a known list.
// 5. Only then the analysed tree (which may evaluate allowed constant expressions) is read for the
//    tables it resolved, as a second check; what runs is the normal form, never the raw text.
import { READER_PARAMETERISED_VIEWS, READER_SYSTEM_TABLES, READER_TABLES } from '../../sql/stores/clickhouseAccess.js';
import {
  AGGREGATE_COMBINATORS,
  CASE_INSENSITIVE_READER_FUNCTIONS,
  READER_FUNCTION_FAMILIES,
  READER_SYNTAX_FUNCTIONS,
} from '../../sql/stores/clickhouseReaderFunctions.js';
import type { ChdbSession } from '../../sql/stores/clickhouseSessions.js';
import { accessDenied, ClickHouseError, fromEngine, readonlyRefusal } from './engineError.js';

export type ReaderStatement = {
  /** The statement in ClickHouse's normal form, without output clauses: what is executed. */
  statement: string;
  /** The statement's own trailing FORMAT, if it had one. */
  format: string | undefined;
  kind: 'select' | 'other';
};

const ALLOWED_TABLES = new Set([...READER_TABLES.map((t) => `holo.${t}`), ...READER_SYSTEM_TABLES.map((t) => `system.${t}`)]);
const VIEWS = new Set(READER_PARAMETERISED_VIEWS.flatMap((v) => [v, `holo.${v}`]));
const FUNCTIONS = new Set<string>([...Object.values(READER_FUNCTION_FAMILIES).flat(), ...READER_SYNTAX_FUNCTIONS]);
const FUNCTIONS_ANY_CASE = new Set(CASE_INSENSITIVE_READER_FUNCTIONS.map((f) => f.toLowerCase()));
const AGGREGATES = new Set(READER_FUNCTION_FAMILIES['Aggregate Functions']);

const AGGREGATES_ANY_CASE = new Set([...AGGREGATES].filter((a) => FUNCTIONS_ANY_CASE.has(a.toLowerCase())).map((a) => a.toLowerCase()));
const isAggregate = (name: string): boolean =>
  AGGREGATES.has(name) ||
  AGGREGATES_ANY_CASE.has(name.toLowerCase()) ||
  AGGREGATE_COMBINATORS.some((c) => name.length > c.length && name.endsWith(c) && isAggregate(name.slice(0, -c.length)));

/** Whether a function name is on the allow-list (aggregates with their combinators: sumIf, uniqMergeState, …). */
export const allowedFunction = (name: string): boolean =>
  FUNCTIONS.has(name) || FUNCTIONS_ANY_CASE.has(name.toLowerCase()) || isAggregate(name);

// The whole statements allowed besides SELECT, in ClickHouse's normal form.
const TABLE_NAMES = [...ALLOWED_TABLES, ...READER_TABLES];
const OTHER_STATEMENTS = [
  'SHOW TABLES',
  'SHOW TABLES FROM holo',
  'SHOW TABLES FROM system',
  'SHOW DATABASES',
  ...TABLE_NAMES.flatMap((t) => [`DESCRIBE TABLE ${t}`, `EXISTS TABLE ${t}`, `SHOW CREATE TABLE ${t}`]),
];

/** What the engine itself says once per process: the other statements' normal forms, its functions. */
type Engine = { otherStatements: Set<string>; functions: Set<string> };
let engine: Promise<Engine> | undefined;
function engineFacts(session: ChdbSession): Promise<Engine> {
  engine ??= (async () => {
    const [row] = jsonRows<{ statements: string[]; functions: string[] }>(
      (
        await session.queryBindAsync(
          `SELECT arrayMap(s -> trimRight(formatQuery(s)), {statements:Array(String)}) AS statements,
                  (SELECT groupArray(lower(name)) FROM system.functions) AS functions`,
          { statements: OTHER_STATEMENTS },
          { format: 'JSONEachRow' },
        )
      ).text(),
    );
    return { otherStatements: new Set(row!.statements), functions: new Set(row!.functions) };
  })();
  engine.catch(() => (engine = undefined));
  return engine;
}

const jsonRows = <T>(text: string): T[] =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as T);

const bind = async (session: ChdbSession, sql: string, params: Record<string, unknown>): Promise<string> =>
  (Object.keys(params).length
    ? await session.queryBindAsync(sql, params, { format: 'TSVRaw' })
    : await session.queryAsync(sql, { format: 'TSVRaw' })
  ).text();

const PROBE = "\nINTO OUTFILE 'holo-probe'";

/** The checker's own queries are not the caller's business: their text is cut from errors. */
const withoutScope = (err: unknown): ClickHouseError => {
  const e = fromEngine(err);
  return new ClickHouseError(e.code, e.codeName, e.message.replace(/[\s.:]*In scope [\s\S]*$/, ''), e.status);
};

/**
 * The statement a text holds, if a data team may run it; otherwise a ClickHouseError (62 syntax,
 * 164 readonly, 497 access denied). `params` binds the text's {name:Type} placeholders.
 */
export async function readerStatement(session: ChdbSession, text: string, params: Record<string, string>): Promise<ReaderStatement> {
  try {
    const facts = await engineFacts(session);
    // 1 and 2: the normal form, whether it has output clauses, and every table the engine lists.
    const [first] = jsonRows<{ normal: string; bare: number; tables: [string, string][] }>(
      await session
        .queryBindAsync(
          `SELECT formatQuery({text:String}) AS normal,
                  formatQueryOrNull(concat(normal, {probe:String})) IS NOT NULL AS bare,
                  (SELECT groupArray((database, name)) FROM system.tables) AS tables`,
          { text, probe: PROBE },
          { format: 'JSONEachRow' },
        )
        .then((r) => r.text())
        .catch((err: unknown) => {
          throw withoutScope(err);
        }),
    );
    if (!first) throw new ClickHouseError(62, 'SYNTAX_ERROR', 'Empty query');
    let statement = first.normal.trimEnd();
    let format: string | undefined;
    if (!first.bare) ({ statement, format } = await withoutFormat(session, statement));
    // The normal form writes a statement's own SETTINGS on a line of its own at the margin (its
    // literals and names escape line breaks): refused here, before an EXPLAIN could apply them.
    if (statement.split('\n').some((line) => line.startsWith('SETTINGS '))) throw readonlyRefusal('SETTINGS in a query');

    // 3: DESCRIBE, EXISTS and SHOW, as whole statements.
    if (facts.otherStatements.has(statement)) return { statement, format, kind: 'other' };

    // 4: the unresolved tree of a SELECT (safe to EXPLAIN: step 2 left no output clause to run).
    let rawTree: string;
    try {
      rawTree = await bind(session, `EXPLAIN QUERY TREE run_passes = 0\n${statement}`, params);
    } catch (err) {
      // The text parsed as one statement (step 1): one EXPLAIN cannot take is not a SELECT.
      const e = fromEngine(err);
      if (e.code === 36 || e.code === 62) throw readonlyRefusal('this statement');
      throw e;
    }
    checkUnresolvedTree(parseDump(rawTree, true), {
      tables: new Set(first.tables.map(([db, name]) => `${db}.${name}`)),
      functions: facts.functions,
    });

    // 5: the analysed tree: every function it resolved, every table and view it reads.
    checkAnalysedTree(parseDump(await bind(session, `EXPLAIN QUERY TREE\n${statement}`, params), false));
    return { statement, format, kind: 'select' };
  } catch (err) {
    throw fromEngine(err);
  }
}

/** A statement's trailing FORMAT, taken off only where the parser confirms it is exactly that. */
async function withoutFormat(session: ChdbSession, normal: string): Promise<{ statement: string; format: string }> {
  const lines = normal.split('\n');
  const format = /^FORMAT (\w+)$/.exec(lines.at(-1) ?? '')?.[1];
  const rest = lines.slice(0, -1).join('\n');
  if (format && rest) {
    const confirmed = await bind(
      session,
      `SELECT formatQuery(concat({rest:String}, '\nFORMAT ', {format:String})) = {normal:String}
          AND formatQueryOrNull(concat({rest:String}, {probe:String})) IS NOT NULL`,
      { rest, format, normal, probe: PROBE },
    ).catch((err: unknown) => {
      throw withoutScope(err);
    });
    if (confirmed.trim() === '1') return { statement: rest, format };
  }
  throw readonlyRefusal('INTO OUTFILE, SETTINGS or a FORMAT clause other than a final FORMAT <name>');
}

// --- The query tree dump (EXPLAIN QUERY TREE), read as the tree it prints ---

type DumpLine = {
  /** A node's kind (FUNCTION, IDENTIFIER, …), or a section header's text (JOIN TREE, ARGUMENTS, …). */
  kind: string;
  node: boolean;
  /** A node's fields after its id, as printed. */
  fields: string;
  parent: DumpLine | undefined;
  children: DumpLine[];
};

const NODE = /^([A-Z][A-Z_ ]*?) id: (\d+)(?:, (.*))?$/;

/**
 * The dump as a tree, by indentation. In an unresolved tree node ids run 0, 1, 2, … in order, and
 * must: a name with a line break in it (printed as is) cannot pass a line of its own off as a
 * node, or shift one. (The analysed tree numbers its nodes otherwise; its checks do not depend on
 * where a line sits, and a forged line can only add a refusal.)
 */
function parseDump(dump: string, idsInOrder: boolean): DumpLine[] {
  const lines: DumpLine[] = [];
  const open: { indent: number; line: DumpLine }[] = [];
  let nextId = 0;
  for (const raw of dump.split('\n')) {
    if (raw.trim() === '') continue;
    const indent = raw.length - raw.trimStart().length;
    const text = raw.trim();
    const node = NODE.exec(text);
    if (node && idsInOrder && Number(node[2]) !== nextId++) throw unsupported('a name with a line break');
    while (open.length && open.at(-1)!.indent >= indent) open.pop();
    const line: DumpLine = {
      kind: node ? node[1]! : text,
      node: Boolean(node),
      fields: node?.[3] ?? '',
      parent: open.at(-1)?.line,
      children: [],
    };
    line.parent?.children.push(line);
    lines.push(line);
    open.push({ indent, line });
  }
  return lines;
}

/** A field's value: the last `name: ` on the line (an alias, printed before it, cannot stand in for it). */
function field(line: DumpLine, name: string): string | undefined {
  const at = line.fields.lastIndexOf(`${name}: `);
  return at < 0 ? undefined : line.fields.slice(at + name.length + 2).split(', ')[0];
}

// The unresolved tree's vocabulary (EXPLAIN QUERY TREE run_passes = 0). A node kind or section not
// listed here is refused, so a construct a future engine adds is refused until it is looked at.
const NODE_KINDS = new Set([
  'QUERY',
  'UNION',
  'LIST',
  'CONSTANT',
  'IDENTIFIER',
  'FUNCTION',
  'TABLE_FUNCTION',
  'LAMBDA',
  'MATCHER',
  'SORT',
  'INTERPOLATE',
  'WINDOW',
  'ARRAY_JOIN',
  'JOIN',
  'CROSS JOIN',
  'APPLY COLUMN TRANSFORMER',
  'REPLACE COLUMN TRANSFORMER',
  'EXCEPT COLUMN TRANSFORMER',
]);
const HEADERS = new Set([
  'WITH',
  'PROJECTION',
  'JOIN TREE',
  'PREWHERE',
  'WHERE',
  'GROUP BY',
  'HAVING',
  'QUALIFY',
  'WINDOW',
  'ORDER BY',
  'INTERPOLATE',
  'LIMIT BY LIMIT',
  'LIMIT BY OFFSET',
  'LIMIT BY',
  'LIMIT',
  'OFFSET',
  'QUERIES',
  'ARGUMENTS',
  'PARAMETERS',
  'EXPRESSION',
  'PARTITION BY',
  'FRAME BEGIN OFFSET',
  'FRAME END OFFSET',
  'FILL FROM',
  'FILL TO',
  'FILL STEP',
  'FILL STALENESS',
  'TABLE EXPRESSION',
  'LEFT TABLE EXPRESSION',
  'RIGHT TABLE EXPRESSION',
  'JOIN EXPRESSION',
  'JOIN EXPRESSIONS',
  'INTERPOLATE_EXPRESSION',
]);
// Headers that carry a name (a sort or interpolate column, a replaced column).
const NAMED_HEADER = /^(?:EXPRESSION [\w.]+|REPLACEMENTS \d+|REPLACEMENT NAME [\w.]+ EXPRESSION)$/;
/** Sections whose identifier is a table (or a CTE, or a view). */
const TABLE_SECTIONS = new Set(['JOIN TREE', 'TABLE EXPRESSION', 'LEFT TABLE EXPRESSION', 'RIGHT TABLE EXPRESSION']);
/** Functions whose second argument may be a table (`x IN t`). */
const IN_FUNCTIONS = new Set(
  ['in', 'notIn', 'nullIn', 'notNullIn'].flatMap((f) => [f, `global${f[0]!.toUpperCase()}${f.slice(1)}`]).map((f) => f.toLowerCase()),
);
/** Names longer than this are refused: the analyser copies a name for each use of its alias. */
const MAX_NAME = 256;

/**
 * No aggregate state anywhere, not even in a type string: AggregateFunction(…) types name any
 * aggregate function (CAST(x, 'AggregateFunction(1, aggThrow, UInt8)') runs it), and opening
 * state bytes a caller wrote is the engine's riskiest code. No documented column holds one.
 */
function checkNoAggregateStates(line: DumpLine): void {
  if (/AggregateFunction/i.test(line.fields)) throw accessDenied('aggregate function states');
}

/** Whether an identifier names a table (in its section, or as the table of `x IN t`). */
function inTablePosition(line: DumpLine): boolean {
  const parent = line.parent;
  if (!parent) return false;
  if (!parent.node && TABLE_SECTIONS.has(parent.kind)) return true;
  // FUNCTION in → ARGUMENTS → LIST → [x, t]
  const fn = parent.kind === 'LIST' ? parent.parent?.parent : undefined;
  return Boolean(
    fn?.node && fn.kind === 'FUNCTION' && IN_FUNCTIONS.has((field(fn, 'function_name') ?? '').toLowerCase()) && parent.children[1] === line,
  );
}

/**
 * Refuses a SELECT's unresolved tree unless every function is allowed (called, or named as an
 * argument: arrayMap(f, …)), no table function but the documented parameterised views appears,
 * no setting, and every table it names is documented (or a CTE of its own that shadows no table).
 */
function checkUnresolvedTree(lines: DumpLine[], engine: { tables: Set<string>; functions: Set<string> }): void {
  const ctes = new Set(lines.flatMap((l) => (l.node && (l.kind === 'QUERY' || l.kind === 'UNION') ? [field(l, 'cte_name') ?? ''] : [])));
  ctes.delete('');
  for (const line of lines) {
    if (!line.node) {
      if (line.kind.startsWith('SETTINGS')) throw readonlyRefusal('SETTINGS in a query');
      if (!HEADERS.has(line.kind) && !NAMED_HEADER.test(line.kind)) throw unsupported(line.kind);
      continue;
    }
    if (!NODE_KINDS.has(line.kind)) throw unsupported(line.kind);
    checkNoAggregateStates(line);
    // A constant's value may be long; every name (alias, identifier, function) may not.
    const names = line.kind === 'CONSTANT' ? line.fields.slice(0, Math.max(0, line.fields.indexOf('constant_value: '))) : line.fields;
    if (names.length > 2 * MAX_NAME + 100) throw unsupported(`a name longer than ${MAX_NAME} characters`);
    if (line.kind === 'FUNCTION') {
      const name = field(line, 'function_name') ?? '';
      if (!allowedFunction(name)) throw accessDenied(`the function ${name}`);
    }
    if (line.kind === 'TABLE_FUNCTION') {
      // Only the documented parameterised views are called like table functions.
      if (!VIEWS.has(field(line, 'table_function_name') ?? '')) throw accessDenied('a table function');
    }
    if (line.kind === 'IDENTIFIER') {
      const name = field(line, 'identifier') ?? '';
      const parts = name.split('.');
      // A function passed by name (arrayMap(file, …)) is a call all the same.
      if (parts.length === 1 && engine.functions.has(name.toLowerCase()) && !allowedFunction(name))
        throw accessDenied(`the function ${name}`);
      // `default` is clickhouse-local's overlay of the file system: its "tables" are files.
      if (parts[0] === 'default' && parts.length > 1) throw accessDenied(name);
      const named = [parts.length > 1 ? `${parts[0]}.${parts[1]}` : undefined, `holo.${parts[0]}`].filter(
        (t): t is string => t !== undefined && engine.tables.has(t),
      );
      for (const table of named) if (!ALLOWED_TABLES.has(table)) throw accessDenied(table);
      if (inTablePosition(line)) {
        const qualified = parts.length > 1 ? name : `holo.${name}`;
        const cte = parts.length === 1 && ctes.has(name) && !engine.tables.has(`holo.${name}`);
        if (!ALLOWED_TABLES.has(qualified) && !cte) throw accessDenied(name);
      }
    }
  }
}

// Functions the analyser itself puts into a tree (constant folding, scalar subqueries, casts).
const ANALYSER_FUNCTIONS = new Set(['_CAST', '__getScalar', '__scalarSubqueryResult']);

/** The analysed tree reads documented tables and views alone, and calls allowed functions alone. */
function checkAnalysedTree(lines: DumpLine[]): void {
  for (const line of lines) {
    if (!line.node) continue;
    checkNoAggregateStates(line);
    if (line.kind === 'FUNCTION') {
      const name = field(line, 'function_name') ?? '';
      if (!allowedFunction(name) && !ANALYSER_FUNCTIONS.has(name)) throw accessDenied(`the function ${name}`);
    } else if (line.kind === 'TABLE_FUNCTION') {
      if (!VIEWS.has(field(line, 'table_function_name') ?? '')) throw accessDenied('a table function');
    } else if (line.kind === 'TABLE') {
      const table = field(line, 'table_name') ?? '';
      if (!ALLOWED_TABLES.has(table)) throw accessDenied(table || 'a table');
    }
  }
}

const unsupported = (what: string) =>
  new ClickHouseError(
    48,
    'NOT_IMPLEMENTED',
    `holo: ${what.slice(0, 60)} is not supported on /clickhouse: plain names, the documented tables and functions (sql/README.md)`,
    400,
  );
