// An uploaded CSV file as records with the line each starts on (csv-parse; quoted fields may span
// lines), and the one shape of its problems: 422 issues at ['body', 'file', 'line N'] (InvalidInput:
// the services that read CSV files throw the domain's kind).
import { parse } from 'csv-parse/sync';
import { InvalidInput, type InputIssue } from '../../schemas/errors.js';

export type CsvRecord = { line: number; fields: Record<string, string> };

export function csvIssue(line: number, msg: string): InputIssue {
  return { loc: ['body', 'file', `line ${line}`], msg, type: 'value_error' };
}

/** Throws every issue at once, in line order, when there is any. */
export function refuseIssues(issues: InputIssue[]): void {
  if (issues.length === 0) return;
  const lineOf = (i: InputIssue) => Number(String(i.loc[2]).slice(5));
  throw new InvalidInput([...issues].sort((a, b) => lineOf(a) - lineOf(b)));
}

/**
 * The records of a UTF-8 CSV with a header row (comma or semicolon, whichever the header uses more;
 * a byte-order mark is fine). Unreadable, empty, lacking a required column or longer than
 * `maxRows`: 422 naming the line.
 */
export function readCsvRecords(file: Buffer, opts: { required: readonly string[]; maxRows: number; what: string }): CsvRecord[] {
  const text = file.toString('utf8');
  const firstLine = text.slice(0, text.indexOf('\n') >= 0 ? text.indexOf('\n') : text.length);
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) >= (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  let parsed: { record: Record<string, string>; info: { lines: number }; raw: string }[];
  // The header as read, also when no record follows it.
  let header: string[] = [];
  const columns = (names: string[]) => (header = names);
  try {
    parsed = parse(text, {
      columns,
      delimiter,
      bom: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
      raw: true,
    }) as typeof parsed;
  } catch (err) {
    const e = err as { lines?: number; message: string };
    throw new InvalidInput([csvIssue(e.lines ?? 1, `not a readable CSV: ${e.message}`)]);
  }
  const missing = opts.required.filter((c) => !header.includes(c));
  if (missing.length) throw new InvalidInput([csvIssue(1, `the header row lacks ${missing.join(', ')}`)]);
  // A column named twice would leave which of its values counts to the parser's whim.
  const twice = header.filter((c, i) => c !== '' && header.indexOf(c) !== i);
  if (twice.length) throw new InvalidInput([csvIssue(1, `the header row names ${[...new Set(twice)].join(', ')} more than once`)]);
  if (parsed.length === 0) throw new InvalidInput([csvIssue(1, `the file has a header row and no ${opts.what}`)]);
  if (parsed.length > opts.maxRows)
    throw new InvalidInput([csvIssue(parsed[opts.maxRows]!.info.lines, `at most ${opts.maxRows} ${opts.what} per import`)]);
  // info.lines is the line a record ends on; it starts as many lines earlier as its own text spans
  // (without blank lines before it and its line break after).
  const records = parsed.map((p) => ({
    line:
      p.info.lines -
      (p.raw
        .replace(/^[\r\n]+/, '')
        .replace(/\r?\n$/, '')
        .match(/\n/g)?.length ?? 0),
    fields: p.record,
  }));
  // PostgreSQL stores no NUL in text: a field holding one is the file's fault, said at its line.
  const withNul = records.filter((r) => Object.values(r.fields).some((v) => v.includes('\u0000')));
  refuseIssues(withNul.map((r) => csvIssue(r.line, 'a field holds a NUL character')));
  return records;
}
