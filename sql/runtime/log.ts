// Structured JSON logs on stdout, one object per line ({ts, level, msg, ...fields}), written by
// pino through an asynchronous destination: lines are buffered and written off the request path
// (the access log was a fifth of the cached hot path's CPU with one write per line). Secrets never
// reach here: callers log identifiers, not credentials.
import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
type Fields = Record<string, unknown>;

export type Logger = {
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
  child(fields: Fields): Logger;
};

let stdout: DestinationStream | undefined;
// One asynchronous stdout stream per process, flushed by pino when the process exits. No minimum
// length: lines still coalesce while a write is in flight, but a quiet process (a first start's
// demo load) must not hold its progress lines back until exit.
const asyncStdout = () => (stdout ??= pino.destination({ dest: 1, sync: false }));

// The timestamp field, formatted once per millisecond: a busy server logs many lines in one.
let stampedAt = 0;
let stamp = '';
function timestamp(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    stamp = `,"ts":"${new Date(now).toISOString()}"`;
  }
  return stamp;
}

function wrap(p: PinoLogger): Logger {
  return {
    debug: (msg, fields) => p.debug(fields ?? {}, msg),
    info: (msg, fields) => p.info(fields ?? {}, msg),
    warn: (msg, fields) => p.warn(fields ?? {}, msg),
    error: (msg, fields) => p.error(fields ?? {}, msg),
    child: (fields) => wrap(p.child(fields)),
  };
}

/**
 * A logger at `level` with `base` fields on every line. `write` receives each line without its
 * newline (tests keep them); by default lines go to stdout asynchronously.
 */
export function createLogger(level: LogLevel, base: Fields = {}, write?: (line: string) => void): Logger {
  const destination: DestinationStream = write ? { write: (line: string) => write(line.replace(/\n$/, '')) } : asyncStdout();
  return wrap(
    pino(
      {
        level,
        base,
        messageKey: 'msg',
        timestamp,
        formatters: { level: (label) => ({ level: label }) },
      },
      destination,
    ),
  );
}

/** A logger that writes nothing (tests and benchmarks that assert on other things). */
export const silentLogger = (): Logger => createLogger('silent', {}, () => undefined);

export function errorFields(err: unknown): Fields {
  if (err instanceof Error) return { error: err.message, stack: err.stack, code: (err as { code?: unknown }).code };
  return { error: String(err) };
}
