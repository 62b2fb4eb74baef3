// CORS with a strict allow-list (spec, Authentication 14): the site origin, its www host and
// developer subdomain, and localhost ports 3000, 5173 and 8000. Never '*'.
import type { Middleware } from 'koa';

export function allowedOrigins(siteOrigin: string): Set<string> {
  const site = new URL(siteOrigin);
  const host = site.host.replace(/^www\./, '');
  return new Set([
    `${site.protocol}//${host}`,
    `${site.protocol}//www.${host}`,
    `${site.protocol}//developer.${host}`,
    ...[3000, 5173, 8000].flatMap((port) => [`http://localhost:${port}`, `http://127.0.0.1:${port}`]),
  ]);
}

/** The CORS headers of an answer to `origin` ('' when the request named none). */
export function corsHeaders(allowed: Set<string>, origin: string): Record<string, string> {
  // Vary first; later middleware appends with ctx.vary().
  if (origin === '' || !allowed.has(origin)) return { Vary: 'Origin' };
  return {
    Vary: 'Origin',
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Credentials': 'true',
    'Access-Control-Expose-Headers': 'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After',
  };
}

export function cors(siteOrigin: string): Middleware {
  const allowed = allowedOrigins(siteOrigin);
  return async (ctx, next) => {
    const origin = ctx.get('Origin');
    ctx.set(corsHeaders(allowed, origin));
    const ok = origin !== '' && allowed.has(origin);
    if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method')) {
      if (!ok) {
        ctx.status = 403;
        ctx.body = { detail: 'origin not allowed' };
        return;
      }
      ctx.set('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
      ctx.set('Access-Control-Allow-Headers', 'Authorization, Content-Type, X-API-Key, X-Request-Id');
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    await next();
  };
}
