// A route's cache policy, declared once beside its maxAge (RouteSpec.cache). The route layer keeps
// the handler's answer in Redis through deps.cache (api/cache.ts: under the prices epoch, so a new
// epoch ends every entry) for maxAge seconds, the same lifetime the Cache-Control header gives.
// The key is the route's identity and its input AFTER parsing, canonically: two URLs the schemas
// read the same (`?limit=05&tcg=x`, `?tcg=x&limit=5`) share one entry, and nothing the schemas
// did not parse (an unknown parameter, api_key, a header) can vary it. What else an answer depends
// on is named in `varyBy`, put in the key and handed to the handler; a cached handler is given
// nothing else (no caller, no ctx), so it cannot read an input its key leaves out.
import type { Context } from 'koa';
import { configure } from 'safe-stable-stringify';

/**
 * What a cached answer may depend on besides its parsed params and query. Answers over windows
 * counted back from today (SQL today(), daysAgo) are not varied by day: like a browser's copy,
 * an entry may outlive midnight by at most its maxAge.
 */
const varies = {
  /** The request's scheme and Host (Koa 3's ctx.origin is null): for answers that carry absolute links. */
  origin: (ctx: Context) => `${ctx.protocol}://${ctx.host}`,
  /** Today's UTC date (YYYY-MM-DD): for answers whose window starts on a day counted from today. */
  day: () => new Date().toISOString().slice(0, 10),
} satisfies Record<string, (ctx: Context) => string>;

export type Vary = keyof typeof varies;

/** The values of the varies a route declares, as its handler reads them. */
export type Varied<V extends Vary> = { readonly [K in V]: string };

export type CachePolicy =
  | true
  | {
      /** What else the answer depends on (see `varies`). */
      readonly varyBy?: readonly Vary[];
      /**
       * Also kept whole per URL in this process (hotResponses.ts) and answered from there. A hot
       * entry is found by the URL alone, so a hot route cannot vary by anything else.
       */
      readonly hot?: true;
    };

export type VaryOf<C> = C extends { readonly varyBy: readonly (infer V extends Vary)[] } ? V : never;

export type ResolvedPolicy = {
  /** Seconds an entry lives in Redis (and in the hot responses): the route's maxAge. */
  ttl: number;
  hot: boolean;
  varyOf(ctx: Context): Record<string, string>;
};

type Identity = { method: string; path: string };

/** The policy of a route, checked once when the route is declared; undefined when it declares none. */
export function cachePolicyOf(spec: Identity & { maxAge?: number; cache?: CachePolicy }): ResolvedPolicy | undefined {
  if (spec.cache === undefined) return undefined;
  const where = `${spec.method.toUpperCase()} ${spec.path}`;
  if (spec.method !== 'get') throw new Error(`${where}: only a GET answer is cached`);
  if (!spec.maxAge) throw new Error(`${where}: a cached route states its maxAge (the entry's lifetime)`);
  const { varyBy = [], hot = false } = spec.cache === true ? {} : spec.cache;
  if (hot && varyBy.length > 0)
    throw new Error(`${where}: a hot answer is found by its URL alone, so it cannot vary by ${varyBy.join(', ')}`);
  return {
    ttl: spec.maxAge,
    hot,
    varyOf: (ctx) => Object.fromEntries(varyBy.map((name) => [name, varies[name](ctx)])),
  };
}

// Keys sorted at every level; anything that is not plain JSON (a function, NaN, a cycle) throws
// rather than printing as something another input could print as too.
const canonical = configure({ deterministic: true, strict: true, bigint: true });

/** The Redis key of a cached route's answer (deps.cache adds the namespace and the prices epoch). */
export function cacheKeyOf(route: Identity, input: { params: unknown; query: unknown; vary: Record<string, string> }): string {
  return `route:${route.method} ${route.path}:${canonical(input)}`;
}
