// /dev on the main origin is the developer portal's canonical address elsewhere (spec: 301
// "canonical-URL redirect (e.g. /dev to the developer portal)"): /dev → the portal's home,
// /dev/<page> → /<page> there.
import type { Middleware } from 'koa';

export function portalRedirect(portalUrl: string): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/dev' && !ctx.path.startsWith('/dev/')) return next();
    const rest = ctx.path.slice('/dev'.length) || '/';
    ctx.status = 301;
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.redirect(`${portalUrl}${rest}${ctx.search}`);
  };
}
