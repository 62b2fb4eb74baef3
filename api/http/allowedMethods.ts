// Which methods a URL takes, decided by the most specific path template that matches it: a literal
// segment beats a parameter, and an integer parameter only matches digits. So /alerts/digest-now
// is the digest route (POST) and not /alerts/{alert_id} (DELETE), for OPTIONS, for the 405 of a
// wrong method and for its Allow header alike. The router, which matches every template by shape
// alone, would otherwise advertise and dispatch methods the document does not list for that path.
import type { Middleware } from 'koa';
import type { Route } from './route.js';

type Template = { pattern: RegExp; literals: number; methods: Set<string>; fixed: boolean };

function compile(path: string, integers: Set<string>): { pattern: RegExp; literals: number; fixed: boolean } {
  let literals = 0;
  const fixed = !path.includes('{');
  const parts = path.split('/').map((segment) => {
    const param = /^\{(\w+)\}$/.exec(segment)?.[1];
    if (param) return integers.has(param) ? '\\d+' : '[^/]+';
    literals++;
    return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return { pattern: new RegExp(`^${parts.join('/')}/?$`), literals, fixed };
}

export function allowedMethods(routes: Route[]): Middleware {
  const byPath = new Map<string, Template>();
  for (const r of routes) {
    let t = byPath.get(r.path);
    if (!t) byPath.set(r.path, (t = { ...compile(r.path, new Set(r.integerParams)), methods: new Set() }));
    t.methods.add(r.method.toUpperCase());
  }
  const templates = [...byPath.values()].sort((a, b) => b.literals - a.literals);
  const templateOf = (path: string) => templates.find((t) => t.pattern.test(path));
  const allowOf = (t: Template) => [...(t.methods.has('GET') ? ['HEAD'] : []), ...t.methods].join(', ');
  // Fixed paths that take no GET (POST /decks/import): a GET of one must not reach a parameter
  // route (GET /decks/{deck_id}). One lookup, so the hot path stays cheap.
  const fixedWithoutGet = new Map(
    [...byPath.entries()].filter(([, t]) => t.fixed && !t.methods.has('GET')).map(([path, t]) => [path, t] as const),
  );
  return async (ctx, next) => {
    if (ctx.method === 'GET' || ctx.method === 'HEAD') {
      const fixed = fixedWithoutGet.get(ctx.path.length > 1 ? ctx.path.replace(/\/$/, '') : ctx.path);
      if (fixed) {
        ctx.set('Allow', allowOf(fixed));
        ctx.status = 405;
        return;
      }
      // The hot path: reads go straight to the router; only its 405 gets the specific Allow.
      await next();
      const template = ctx.status === 405 ? templateOf(ctx.path) : undefined;
      if (template) ctx.set('Allow', allowOf(template));
      return;
    }
    const template = templateOf(ctx.path);
    if (!template) return next();
    if (ctx.method === 'OPTIONS') {
      ctx.set('Allow', allowOf(template));
      ctx.status = 204;
      return;
    }
    if (!template.methods.has(ctx.method)) {
      ctx.set('Allow', allowOf(template));
      ctx.status = 405;
      return;
    }
    return next();
  };
}
