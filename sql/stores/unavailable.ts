// A store the caller needs is unreachable (→ 503 holo_data_unavailable at the HTTP edge). Errors the
// server itself reports (SQL errors, with a SQLSTATE or a ClickHouse error type) stay what they are,
// except the classes that mean the server is going away. Recognised by code, never by message.

export class StoreUnavailableError extends Error {
  constructor(
    readonly store: 'postgres' | 'clickhouse' | 'redis',
    override readonly cause: unknown,
  ) {
    super(`${store} unavailable`);
  }
}

// SQLSTATE classes 08 (connection exception), 57 (operator intervention: shutdown), 53 (resources).
const PG_UNAVAILABLE_CLASSES = new Set(['08', '57', '53']);

export function isPgUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; severity?: unknown };
  if (typeof e?.severity === 'string' && typeof e.code === 'string') return PG_UNAVAILABLE_CLASSES.has(e.code.slice(0, 2));
  // No server-reported error: the client could not reach or keep a connection.
  return true;
}

export function isClickHouseUnavailable(err: unknown): boolean {
  const e = err as { type?: unknown; clickhouseCode?: unknown };
  // Server-side errors carry a ClickHouse error type (HTTP) or code (chDB); anything else is transport.
  return typeof e?.type !== 'string' && typeof e?.clickhouseCode !== 'number';
}

/**
 * A prepared statement PostgreSQL can no longer run as planned: a migration changed a result type
 * under it (0A000 "cached plan must not change result type") or the server forgot it (26000).
 */
export function isStalePreparedStatement(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '0A000' || code === '26000';
}
