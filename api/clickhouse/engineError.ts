// ClickHouse's own error shape for /clickhouse: `Code: N. DB::Exception: …` with the code's name,
// and the HTTP status this interface answers with. Engine errors are recognised by their code.

/** A ClickHouse error: its code, name and the HTTP status this interface answers with. */
export class ClickHouseError extends Error {
  constructor(
    readonly code: number,
    readonly codeName: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
  get text(): string {
    return `Code: ${this.code}. DB::Exception: ${this.message}. (${this.codeName}) (version holo)\n`;
  }
}

// Engine errors the caller caused, by code: refused access is 403, everything else a query error (400).
const FORBIDDEN_CODES = new Set([164, 497, 516]);

/** The ClickHouseError an engine exception carries (its code, name and message). */
export function fromEngine(err: unknown): ClickHouseError {
  if (err instanceof ClickHouseError) return err;
  const text = err instanceof Error ? err.message : String(err);
  const m = /Code: (\d+)\. DB::Exception: ([\s\S]*?)\s*(?:\(([A-Z_]+)\))?\s*(?:\(version [^)]*\))?\s*$/.exec(text);
  if (!m) return new ClickHouseError(1002, 'UNKNOWN_EXCEPTION', text.replace(/^Query failed: /, ''));
  const code = Number(m[1]);
  // A query that failed inside another (an EXPLAIN) repeats the prefix.
  // The engine's version is not the caller's business either.
  const message = m[2]!
    .replace(/^(?:Code: \d+\. DB::Exception: )+/, '')
    .replace(/\s*\([A-Z_]+\)\s*\(version [^)]*\)$/, '')
    .replace(/\s*\(version [^)]*\)/g, '');
  return new ClickHouseError(code, m[3] ?? 'UNKNOWN_EXCEPTION', message.replace(/\.$/, ''), FORBIDDEN_CODES.has(code) ? 403 : 400);
}

/** 497 ACCESS_DENIED: what a server's reader user is told for a table or function it may not use. */
export const accessDenied = (what: string): ClickHouseError =>
  new ClickHouseError(
    497,
    'ACCESS_DENIED',
    `holo: Not enough privileges to use ${what}: data teams read the documented tables with the documented functions (sql/README.md)`,
    403,
  );

/** 164 READONLY: a statement or clause a read-only reader may not run. */
export const readonlyRefusal = (what: string): ClickHouseError =>
  new ClickHouseError(
    164,
    'READONLY',
    `holo: Cannot execute ${what} in readonly mode: data teams run SELECT, DESCRIBE, SHOW and EXISTS`,
    403,
  );
