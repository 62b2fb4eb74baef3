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
//    (sql/clickhouseReaderFunctions.ts), identifiers that name no table but a documented one, no
//    table function but the documented parameterised views, no SETTINGS, no node or section kind
//    outside a known list.
// 5. Only then the analysed tree (which may evaluate allowed constant expressions) is read for the
//    tables it resolved, as a second check; what runs is the normal form, never the raw text.
import { READER_PARAMETERISED_VIEWS, READER_SYSTEM_TABLES, READER_TABLES } from '../../sql/clickhouseAccess.js';
import {
  AGGREGATE_COMBINATORS,
  CASE_INSENSITIVE_READER_FUNCTIONS,
  READER_FUNCTION_FAMILIES,
  READER_SYNTAX_FUNCTIONS,
} from '../../sql/clickhouseReaderFunctions.js';
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

// The whole statements allowed besides SELECT, in ClickHouse's normal form (computed once per engine).
const TABLE_NAMES = [...ALLOWED_TABLES, ...READER_TABLES];
const OTHER_STATEMENTS = [
  'SHOW TABLES',
  'SHOW TABLES FROM holo',
  'SHOW TABLES FROM system',
  'SHOW DATABASES',
  ...TABLE_NAMES.flatMap((t) => [`DESCRIBE TABLE ${t}`, `EXISTS TABLE ${t}`, `SHOW CREATE TABLE ${t}`]),
];
let otherStatements: Promise<Set<string>> | undefined;
function normalOtherStatements(session: ChdbSession): Promise<Set<string>> {
  otherStatements ??= session
    .queryBindAsync(
      'SELECT arrayJoin(arrayMap(s -> formatQuery(s), {statements:Array(String)})) AS s',
      { statements: OTHER_STATEMENTS },
      {
        format: 'JSONEachRow',
      },
    )
    .then((r) => new Set(jsonRows<{ s: string }>(r.text()).map((row) => row.s.trimEnd())));
  otherStatements.catch(() => (otherStatements = undefined));
  return otherStatements;
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

/**
 * The statement a text holds, if a data team may run it; otherwise a ClickHouseError (62 syntax,
 * 164 readonly, 497 access denied). `params` binds the text's {name:Type} placeholders.
 */
export async function readerStatement(session: ChdbSession, text: string, params: Record<string, string>): Promise<ReaderStatement> {
  try {
    // 1 and 2: the normal form, whether it has output clauses, and every table the engine knows.
    const [first] = jsonRows<{ normal: string; bare: number; tables: [string, string][] }>(
      await session
        .queryBindAsync(
          `SELECT formatQuery({text:String}) AS normal,
                  formatQueryOrNull(concat(normal, {probe:String})) IS NOT NULL AS bare,
                  (SELECT groupArray((database, name)) FROM system.tables) AS tables`,
          { text, probe: PROBE },
          { format: 'JSONEachRow' },
        )
        .then((r) => r.text()),
    );
    if (!first) throw new ClickHouseError(62, 'SYNTAX_ERROR', 'Empty query');
    let statement = first.normal.trimEnd();
    let format: string | undefined;
    if (!first.bare) ({ statement, format } = await withoutFormat(session, statement));

    // 3: DESCRIBE, EXISTS and SHOW, as whole statements.
    if ((await normalOtherStatements(session)).has(statement)) return { statement, format, kind: 'other' };

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
    checkRawTree(rawTree, new Set(first.tables.map(([db, name]) => `${db}.${name}`)));

    // 5: the tables the analyser resolved.
    const analysed = await bind(session, `EXPLAIN QUERY TREE\n${statement}`, params);
    for (const line of analysed.split('\n')) {
      if (/^\s*TABLE_FUNCTION id: \d+/.test(line)) {
        const at = line.lastIndexOf('table_function_name: ');
        if (
          at < 0 ||
          !VIEWS.has(
            line
              .slice(at + 'table_function_name: '.length)
              .split(',')[0]!
              .trim(),
          )
        )
          throw accessDenied('a table function');
        continue;
      }
      if (!/^\s*TABLE id: \d+/.test(line)) continue;
      // The name is the line's last field; an alias (printed before it) cannot stand in for it.
      const at = line.lastIndexOf('table_name: ');
      const table =
        at < 0
          ? ''
          : line
              .slice(at + 'table_name: '.length)
              .split(',')[0]!
              .trim();
      if (!ALLOWED_TABLES.has(table)) throw accessDenied(table || 'a table');
    }
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
    );
    if (confirmed.trim() === '1') return { statement: rest, format };
  }
  throw readonlyRefusal('INTO OUTFILE, SETTINGS or a FORMAT clause other than a final FORMAT <name>');
}

// The unresolved tree's vocabulary (EXPLAIN QUERY TREE run_passes = 0). Node lines carry an id;
// the rest are section headers. A kind or header not listed here is refused, so a construct a
// future engine adds is refused until it is looked at.
const NODE_KINDS = new Set([
  'QUERY',
  'UNION',
  'LIST',
  'CONSTANT',
  'IDENTIFIER',
  'FUNCTION',
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
const NODE = /^([A-Z][A-Z_ ]*?) id: (\d+)(?:, (.*))?$/;

/**
 * Refuses a SELECT's unresolved tree unless every function is allowed, no table function or
 * setting appears, and no identifier names an existing table other than a documented one. Node
 * ids must run 0, 1, 2, … in order: an identifier or alias with a line break in it (printed as is)
 * cannot pass off a line of its own as a node or hide one.
 */
function checkRawTree(dump: string, existingTables: Set<string>): void {
  let nextId = 0;
  for (const raw of dump.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const node = NODE.exec(line);
    if (!node) {
      if (line.startsWith('SETTINGS')) throw readonlyRefusal('SETTINGS in a query');
      if (!HEADERS.has(line) && !NAMED_HEADER.test(line)) throw unsupported(line);
      continue;
    }
    const [, kind, id, fields = ''] = node;
    if (Number(id) !== nextId++) throw unsupported('a name with a line break');
    if (kind === 'TABLE_FUNCTION') {
      // Only the documented parameterised views are called like table functions.
      const at = fields.lastIndexOf('table_function_name: ');
      if (at < 0 || !VIEWS.has(fields.slice(at + 'table_function_name: '.length).split(', ')[0]!)) throw accessDenied('a table function');
      continue;
    }
    if (!NODE_KINDS.has(kind!)) throw unsupported(kind!);
    if (kind === 'FUNCTION') {
      // The real name is the last field of its kind: an alias is printed before it.
      const at = fields.lastIndexOf('function_name: ');
      const name = fields.slice(at + 'function_name: '.length).split(', ')[0]!;
      if (at < 0 || !allowedFunction(name)) throw accessDenied(`the function ${name}`);
    }
    if (kind === 'IDENTIFIER') {
      const at = fields.lastIndexOf('identifier: ');
      const parts = fields.slice(at + 'identifier: '.length).split('.');
      // A table named by database and table, or by table alone in the session's database (holo).
      const named = [parts.length > 1 ? `${parts[0]}.${parts[1]}` : undefined, `holo.${parts[0]}`].filter(
        (t): t is string => t !== undefined && existingTables.has(t),
      );
      for (const table of named) if (!ALLOWED_TABLES.has(table)) throw accessDenied(table);
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
