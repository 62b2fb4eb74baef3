// Request id, live counters and one structured access-log line per request. The log carries the
// path without its query string: keys passed as ?api_key= must never reach the logs.
import crypto from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../../sql/runtime/log.js';
import type { RequestCounters } from '../deps.js';

const SAFE_ID = /^[A-Za-z0-9._-]{8,64}$/;

export function requestContext(log: Logger, counters: RequestCounters): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    const requestId = SAFE_ID.test(incoming) ? incoming : crypto.randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    counters.total++;
    counters.inFlight++;
    try {
      await next();
    } finally {
      counters.inFlight--;
      const cls = `${Math.floor(ctx.status / 100)}xx`;
      counters.byStatus[cls] = (counters.byStatus[cls] ?? 0) + 1;
      log.info('request', {
        request_id: requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
      });
    }
  };
}
