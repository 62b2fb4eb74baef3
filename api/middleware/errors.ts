// The one place errors become responses: {detail} for every non-2xx, the 422 list for validation,
// 503 holo_data_unavailable when a store is unreachable, 503 payments_unavailable when payments are
// off or the payment provider fails, and a plain 500 (logged) for the rest.
import type { Middleware } from 'koa';
import type { Logger } from '../../sql/runtime/log.js';
import { errorFields } from '../../sql/runtime/log.js';
import { DATA_UNAVAILABLE, responseOf } from '../http/errors.js';
import { DomainError, InvalidInput } from '../../schemas/errors.js';
import { StoreUnavailableError } from '../../sql/stores/unavailable.js';
import { PaymentsUnavailable } from '../../sql/external/stripe.js';

export function errorHandler(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      // Koa and the router answer unknown paths (404) and wrong methods (405) without a body.
      if (ctx.status >= 400 && (ctx.body === undefined || ctx.body === null)) {
        const status = ctx.status;
        ctx.body = { detail: status === 404 ? 'Not Found' : status === 405 ? 'Method Not Allowed' : 'Error' };
        ctx.status = status;
      }
    } catch (err) {
      ctx.set('Cache-Control', 'no-store');
      if (err instanceof InvalidInput) {
        ctx.status = 422;
        ctx.body = { detail: err.issues };
      } else if (err instanceof DomainError) {
        const { status, body, retryAfter } = responseOf(err);
        ctx.status = status;
        if (retryAfter !== undefined) ctx.set('Retry-After', String(retryAfter));
        ctx.body = body;
      } else if (err instanceof StoreUnavailableError) {
        log.warn('store unavailable', { request_id: ctx.state.requestId, store: err.store, ...errorFields(err.cause) });
        ctx.status = 503;
        ctx.set('Retry-After', '30');
        ctx.body = { detail: DATA_UNAVAILABLE };
      } else if (err instanceof PaymentsUnavailable) {
        ctx.status = 503;
        ctx.set('Retry-After', '30');
        ctx.body = { detail: `payments_unavailable: ${err.message}`, error: 'payments_unavailable' };
      } else if (isClientError(err)) {
        // Koa and koa-body raise these for malformed requests (bad JSON, too large).
        ctx.status = err.status;
        ctx.body = { detail: err.expose ? err.message : 'Bad Request' };
      } else {
        log.error('unhandled error', { request_id: ctx.state.requestId, path: ctx.path, ...errorFields(err) });
        ctx.status = 500;
        ctx.body = { detail: 'Internal Server Error' };
      }
    }
  };
}

function isClientError(err: unknown): err is { status: number; expose: boolean; message: string } {
  const e = err as { status?: unknown };
  return typeof e?.status === 'number' && e.status >= 400 && e.status < 500;
}
