// Request id, live counters and one structured access-log line per request. The log carries the
// path without its query string: keys passed as ?api_key= must never reach the logs.
import crypto from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../../sql/runtime/log.js';
import type { RequestCounters } from '../deps.js';

const SAFE_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** The caller's X-Request-Id when it is a safe token, else a new one. */
export const requestIdOf = (incoming: string | undefined) =>
  incoming !== undefined && SAFE_ID.test(incoming) ? incoming : crypto.randomUUID();

/** Counts an answered request and writes its access-log line. */
export function requestDone(
  log: Logger,
  counters: RequestCounters,
  r: { requestId: string; method: string; path: string; status: number; started: bigint },
): void {
  counters.inFlight--;
  const cls = `${Math.floor(r.status / 100)}xx`;
  counters.byStatus[cls] = (counters.byStatus[cls] ?? 0) + 1;
  log.info('request', {
    request_id: r.requestId,
    method: r.method,
    path: r.path,
    status: r.status,
    duration_ms: Number(process.hrtime.bigint() - r.started) / 1e6,
  });
}

export function requestContext(log: Logger, counters: RequestCounters): Middleware {
  return async (ctx, next) => {
    const requestId = requestIdOf(ctx.get('X-Request-Id') || undefined);
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    counters.total++;
    counters.inFlight++;
    try {
      await next();
    } finally {
      requestDone(log, counters, { requestId, method: ctx.method, path: ctx.path, status: ctx.status, started });
    }
  };
}
