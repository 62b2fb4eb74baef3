// /dev on the main origin is the developer portal's canonical address elsewhere (spec: 301
// "canonical-URL redirect (e.g. /dev to the developer portal)"): /dev → the portal's home,
// /dev/<page> → /<page> there. Routes, not middleware: no other request pays for the check.
import type Router from '@koa/router';
import type { Context } from 'koa';

export function mountPortalRedirect(router: Router, portalUrl: string): void {
  const redirect = (ctx: Context) => {
    ctx.status = 301;
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.redirect(`${portalUrl}${ctx.path.slice('/dev'.length) || '/'}${ctx.search}`);
  };
  router.get('/dev', redirect);
  router.get('/dev/*rest', redirect);
}
