// The API server's first listener. A GET of a URL the hot responses hold, from a caller that
// presents no credential (no Authorization, X-API-Key, api_key or cookie: anonymous for sure), is
// answered here on node:http: request id, the anonymous rate limit, CORS, the security headers,
// the kept headers and bytes (or 304), the access log line, with the same helpers as the Koa path
// and the same headers. Everything else, and any of these past its limit or failing, goes to Koa, which answers
// as always (a refused call is then counted twice: it was refused either way). Koa's per-request
// context, middleware chain and response handling cost more than the rest of such an answer.
import type http from 'node:http';
import type { AppDeps } from '../deps.js';
import { countCall, rateHeaders } from '../auth/rateLimit.js';
import { allowedOrigins, corsHeaders } from '../middleware/cors.js';
import { requestDone, requestIdOf } from '../middleware/requestContext.js';
import { API_SECURITY_HEADERS } from '../middleware/securityHeaders.js';
import { notModified, type HotResponse } from './hotResponses.js';
import { clientAddress } from './clientAddress.js';

const ANONYMOUS = { kind: 'anonymous' } as const;

const presentsCredential = (req: http.IncomingMessage, url: string) =>
  req.headers.authorization !== undefined ||
  req.headers['x-api-key'] !== undefined ||
  req.headers.cookie !== undefined ||
  url.includes('api_key');

export function hotPath(deps: AppDeps, koa: http.RequestListener): http.RequestListener {
  const allowed = allowedOrigins(deps.config.siteOrigin);
  const limits = {
    redis: deps.stores.redis,
    redisPrefix: deps.config.redisPrefix,
    anonymousPerMinute: deps.config.anonymousPerMinute,
    db: deps.db,
  };

  async function answer(req: http.IncomingMessage, res: http.ServerResponse, url: string, hit: HotResponse): Promise<void> {
    const started = process.hrtime.bigint();
    const { decision, retryAfter } = await countCall(ANONYMOUS, clientAddress(req, deps.config.trustedProxyHops), limits);
    if (retryAfter !== null) return koa(req, res);
    const requestId = requestIdOf(req.headers['x-request-id'] as string | undefined);
    deps.counters.total++;
    deps.counters.inFlight++;
    const status = notModified(req.headers, hit.etag) ? 304 : 200;
    res.writeHead(status, {
      'X-Request-Id': requestId,
      ...API_SECURITY_HEADERS,
      ...corsHeaders(allowed, req.headers.origin ?? ''),
      ...rateHeaders(decision),
      ...hit.headers,
    });
    res.end(status === 304 ? undefined : hit.body);
    const q = url.indexOf('?');
    requestDone(deps.log, deps.counters, { requestId, method: 'GET', path: q < 0 ? url : url.slice(0, q), status, started });
  }

  return (req, res) => {
    const url = req.url ?? '';
    const hit = req.method === 'GET' && !presentsCredential(req, url) ? deps.cache.hot.get(url) : undefined;
    if (hit === undefined || hit.access !== 'free') return koa(req, res);
    answer(req, res, url, hit).catch(() => {
      // The rate limiter's store failed: Koa answers (with the error the Koa path gives for it).
      if (!res.headersSent) koa(req, res);
    });
  };
}
