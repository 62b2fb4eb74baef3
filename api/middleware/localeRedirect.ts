// HTML-style catalogue URLs (spec, Authentication 15). A browser (Accept prefers text/html over
// JSON) asking for an un-prefixed page such as /tcgs/pokemon, /pokemon/sets or /cards/top gets 302
// to the same page under its language (/en/…, /nl/…, from Accept-Language); API clients get the
// resource directly. Language-prefixed paths serve the same resource. Never redirected: anything
// under /api/, /users/, /auth/, /seller/, /dl/, and the exact paths /tcgs, /decks, /health,
// /stats (read as exact: the spec's own example redirects /tcgs/pokemon), and non-page paths
// (/openapi.json, /static/…).
import type { Middleware } from 'koa';

export const LANGUAGES = ['en', 'nl', 'de', 'fr', 'es', 'it', 'pt', 'ja'] as const;
const NEVER_PREFIXES = ['/api/', '/users/', '/auth/', '/seller/', '/dl/', '/static/', '/admin/'];
const NEVER_EXACT = new Set(['/tcgs', '/decks', '/health', '/stats', '/openapi.json', '/']);
// The legacy catalogue's page shapes.
const PAGE = /^\/(?:tcgs\/[^/]+|cards\/top|[a-z0-9][a-z0-9-]*\/(?:sets|cards|sealed)(?:\/[^/]+){0,2})\/?$/;
const LANGUAGE_PREFIX = new RegExp(`^/(${LANGUAGES.join('|')})(/.*)$`);

export function isHtmlStylePage(path: string): boolean {
  if (NEVER_EXACT.has(path) || NEVER_PREFIXES.some((p) => path.startsWith(p))) return false;
  return PAGE.test(path);
}

export function localeRedirect(): Middleware {
  return async (ctx, next) => {
    if (ctx.path.startsWith('/api/')) return next(); // the hot path: never a page
    const prefixed = LANGUAGE_PREFIX.exec(ctx.path);
    if (prefixed && isHtmlStylePage(prefixed[2]!)) {
      ctx.state.language = prefixed[1];
      ctx.path = prefixed[2]!;
      return next();
    }
    if ((ctx.method === 'GET' || ctx.method === 'HEAD') && isHtmlStylePage(ctx.path) && ctx.accepts('json', 'html') === 'html') {
      const language = ctx.acceptsLanguages([...LANGUAGES]) || 'en';
      ctx.set('Vary', 'Accept, Accept-Language');
      ctx.set('Cache-Control', 'no-store');
      ctx.status = 302;
      ctx.redirect(`/${language}${ctx.path}${ctx.search}`);
      return;
    }
    return next();
  };
}
