// Each route is declared once: its zod request and response schemas validate the request, type
// the handler and describe the route in /openapi.json.
import type Router from '@koa/router';
import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { z } from 'zod';
import { ErrorResponse, integerParams, ValidationErrorResponse } from '../../schemas/common.js';
import { fromZod, ValidationError } from './errors.js';
import type { Access, Principal } from '../auth/principal.js';
import { callerOf, type Caller } from '../auth/caller.js';
import { deprecationHeaders, deprecationOf } from './deprecations.js';
import { notModified } from './hotResponses.js';
import { DomainError } from '../../schemas/errors.js';
import type { Cache } from '../cache.js';
import { cacheKeyOf, cachePolicyOf, type CachePolicy, type Varied, type Vary, type VaryOf } from './cachePolicy.js';

export type AnyObject = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The declared request headers as the handler reads them: each one's text, unvalidated (absent or empty: undefined). */
type DeclaredHeaders<H extends AnyObject> = { readonly [K in keyof z.output<H>]?: string };

/** What a route's handler is given when it declares no cache policy. */
type RequestInput<P extends AnyObject, Q extends AnyObject, B extends z.ZodType, A extends Access, H extends AnyObject> = {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  /** Who is calling, resolved by the access tag: read it here rather than from ctx. */
  caller: Caller<A>;
  /** The request headers the route declares. */
  headers: DeclaredHeaders<H>;
  /** For what the input does not carry: cookies, a stream the handler writes or reads, a Location. */
  ctx: Context;
};

/**
 * What a cached route's handler is given: what its key is made of, and nothing else (no caller,
 * no ctx), so its answer cannot depend on an input the key leaves out.
 */
type CachedInput<P extends AnyObject, Q extends AnyObject, V extends Vary> = {
  params: z.output<P>;
  query: z.output<Q>;
  /** The values of the policy's varyBy. */
  vary: Varied<V>;
};

export type RouteSpec<
  P extends AnyObject,
  Q extends AnyObject,
  R extends z.ZodType,
  B extends z.ZodType = z.ZodType,
  A extends Access = Access,
  H extends AnyObject = AnyObject,
  C extends CachePolicy | undefined = undefined,
> = {
  method: Method;
  /** OpenAPI-style path, e.g. /api/v2/cards/{card_id} */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: P;
  query?: Q;
  /** Request headers the handler reads and checks itself (documented, handed to the handler as text, not validated here). */
  headers?: H;
  /** Request body; validated like params and query (422 with loc ['body', ...]). */
  body?: B;
  /**
   * How the body arrives: JSON (default), an HTML form (application/x-www-form-urlencoded), or a
   * file upload (multipart/form-data: `body` only documents it; the handler reads the stream
   * with readUploadedFile, which enforces the limits), or raw bytes the handler reads and checks
   * itself (a signed webhook, whose signature covers the exact bytes; `body` documents them).
   */
  bodyType?: 'json' | 'form' | 'multipart' | 'raw';
  /** What a success returns: JSON (default), an HTML page the handler renders as a string,
   *  server-sent events the handler writes to the stream it returns, or a CSV file it streams. */
  produces?: 'json' | 'html' | 'event-stream' | 'csv' | 'png' | 'svg';
  response: R;
  /** 400 {detail} instead of 422 for an invalid body (registration, as the spec says). */
  invalidBody?: 400;
  /** Status of a successful response: 200 unless said (202 for a started run, 302 for a page
   *  elsewhere, 303 after a form post that continues elsewhere: the handler sets Location). */
  status?: 200 | 201 | 202 | 302 | 303;
  /** The handler may answer 302 instead, by setting Location (a search form that goes to its result). */
  redirects?: 302;
  /** Who may call (spec access tags): free (default), auth, starter+, pro+, admin. */
  access?: A;
  /** Cache-Control max-age for successful responses; undefined sends no-store. */
  maxAge?: number;
  /**
   * The answer is kept in Redis for maxAge seconds under the prices epoch (api/http/cachePolicy.ts),
   * keyed by the route and its parsed params and query (and what varyBy names): `true`, or
   * `{ varyBy, hot }`. GET routes with a maxAge only; JSON, an SVG, a PNG or a page.
   */
  cache?: C;
  errors?: number[];
  handler: [C] extends [undefined]
    ? (input: RequestInput<P, Q, B, A, H>) => Promise<z.input<R> | string | Readable | Buffer>
    : (input: CachedInput<P, Q, VaryOf<C>>) => Promise<z.input<R> | Buffer>;
};

/** The JSON body of a success: the response schema's input type (what the handler returns, serialised as is); unknown for z.any(). */
type JsonBodyOf<R extends z.ZodType> = 0 extends 1 & z.input<R> ? unknown : z.input<R>;

/** Resolves the caller, checks the route's access tag and counts the call; throws 401/403/429. */
export type AccessCheck = (access: Access, ctx: Context) => Promise<unknown>;

/**
 * A declared route. Its method, path and the JSON body of a success (the response schema's input
 * type; unknown for a body that is not JSON) stay in its type, so the typed test client
 * (test/support/http.ts) answers a call with the body type of the route it reaches.
 */
export type Route<M extends Method = Method, Path extends string = string, Body = unknown> = {
  access: Access;
  method: M;
  path: Path;
  /** Type only, never set: what a success's JSON body holds. */
  readonly responseBody?: Body;
  /** Path parameters that are integers: their segment can only be digits. */
  integerParams: string[];
  /** The handler reads the body's bytes itself: the JSON parser must leave the stream alone. */
  rawBody: boolean;
  mount(router: Router, checkAccess: AccessCheck, cache: Cache): void;
  document(registry: OpenAPIRegistry): void;
};

const koaPath = (p: string) => p.replace(/\{(\w+)\}/g, ':$1');

// api_key is an authentication parameter accepted on every route (spec, Authentication 5), not
// part of any route's own query.
function ownQuery(ctx: Context): Record<string, unknown> {
  if (ctx.querystring === '') return {};
  const { api_key: _apiKey, ...rest } = ctx.query;
  return rest;
}

export function defineRoute<
  P extends AnyObject = AnyObject,
  Q extends AnyObject = AnyObject,
  R extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  const M extends Method = Method,
  const Path extends string = string,
  const A extends Access = 'free',
  H extends AnyObject = AnyObject,
  const C extends CachePolicy | undefined = undefined,
>(spec: RouteSpec<P, Q, R, B, A, H, C> & { method: M; path: Path }): Route<M, Path, JsonBodyOf<R>> {
  const access = spec.access ?? 'free';
  const policy = cachePolicyOf(spec);
  const headerNames = Object.keys((spec.headers as unknown as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});
  const declaredHeaders = (ctx: Context) =>
    Object.fromEntries(headerNames.flatMap((name) => (ctx.get(name) ? [[name, ctx.get(name)]] : []))) as DeclaredHeaders<H>;
  const deprecation = deprecationOf(spec.method, spec.path);
  const html = spec.produces === 'html';
  const shape = (spec.params as unknown as { shape?: Record<string, z.ZodType> } | undefined)?.shape ?? {};
  return {
    access,
    method: spec.method,
    path: spec.path,
    rawBody: spec.bodyType === 'raw',
    integerParams: Object.entries(shape).flatMap(([name, schema]) => (integerParams.has(schema) ? [name] : [])),
    mount(router, checkAccess, cache) {
      const hot = cache.hot;
      const cacheControl = spec.maxAge ? `public, max-age=${spec.maxAge}` : 'no-store';
      router[spec.method](koaPath(spec.path), async (ctx) => {
        if (deprecation) ctx.set(deprecationHeaders(deprecation));
        await checkAccess(access, ctx);
        const params = spec.params ? spec.params.safeParse(ctx.params) : { success: true as const, data: {} };
        if (!params.success) throw fromZod('path', params.error, ctx.params);
        const rawQuery = ownQuery(ctx);
        const query = spec.query ? spec.query.safeParse(rawQuery) : { success: true as const, data: {} };
        if (!query.success) throw fromZod('query', query.error, rawQuery);
        const jsonBody = spec.body && spec.bodyType !== 'multipart' && spec.bodyType !== 'raw' ? spec.body : undefined;
        if (jsonBody && ctx.state.bodyUnreadable) {
          const issue = { loc: ['body'], msg: 'the body is not valid JSON (an object or an array)', type: 'value_error.jsondecode' };
          if (spec.invalidBody === 400) throw new DomainError('invalid', issue.msg);
          throw new ValidationError([issue]);
        }
        const rawBody = (ctx.request as { body?: unknown }).body ?? {};
        const input = jsonBody ? jsonBody.safeParse(rawBody) : { success: true as const, data: undefined };
        if (!input.success) {
          const validation = fromZod('body', input.error, rawBody);
          if (spec.invalidBody === 400) {
            const first = validation.issues[0]!;
            throw new DomainError(
              'invalid',
              first.type === 'value_error.missing' ? `Missing field: ${first.loc.slice(1).join('.')}` : first.msg,
            );
          }
          throw validation;
        }
        const epoch = hot.epoch();
        let body: unknown;
        if (policy) {
          const vary = policy.varyOf(ctx);
          const handler = spec.handler as (input: CachedInput<P, Q, Vary>) => Promise<unknown>;
          const input = { params: params.data as z.output<P>, query: query.data as z.output<Q>, vary: vary as Varied<Vary> };
          // Kept as JSON text: a PNG's bytes as base64, an SVG or a page as its text, both decoded for sending.
          const kept = await cache.json(cacheKeyOf(spec, input), policy.ttl, async () => {
            const answer = await handler(input);
            return Buffer.isBuffer(answer) ? answer.toString('base64') : answer;
          });
          body =
            spec.produces === 'png'
              ? Buffer.from(JSON.parse(kept) as string, 'base64')
              : spec.produces === 'svg' || html
                ? (JSON.parse(kept) as string)
                : kept;
        } else {
          const handler = spec.handler as (input: RequestInput<P, Q, B, A, H>) => Promise<unknown>;
          body = await handler({
            params: params.data as z.output<P>,
            query: query.data as z.output<Q>,
            body: input.data as z.output<B>,
            caller: callerOf(ctx.state.principal as Principal | undefined, access as A),
            headers: declaredHeaders(ctx),
            ctx,
          });
        }
        ctx.status = spec.redirects && ctx.response.get('Location') ? spec.redirects : (spec.status ?? 200);
        ctx.set('Cache-Control', cacheControl);
        if (Buffer.isBuffer(body) && spec.produces === 'png') {
          ctx.type = 'image/png';
          ctx.body = body;
        } else if (typeof body === 'string' && spec.produces === 'svg') {
          ctx.type = 'image/svg+xml';
          ctx.body = body;
        } else if (body instanceof Readable && spec.produces === 'csv') {
          // A file streamed as it is written (an export): Koa pipes it and ends it with the response.
          ctx.type = 'text/csv; charset=utf-8';
          ctx.body = body;
        } else if (body instanceof Readable) {
          // Server-sent events, written here rather than by Koa: a client going away is the normal
          // end of such a stream, not an error to report. No buffering by proxies, no idle timeout.
          ctx.type = 'text/event-stream; charset=utf-8';
          ctx.set('X-Accel-Buffering', 'no');
          ctx.respond = false;
          ctx.req.socket.setTimeout(0);
          ctx.res.writeHead(ctx.status, ctx.response.headers as Record<string, string>);
          ctx.res.once('close', () => body.destroy());
          body.pipe(ctx.res);
        } else if (typeof body === 'string' && policy?.hot && ctx.status === 200) {
          // Pre-serialised JSON from the cache, kept whole for the next caller of this URL.
          const headers = {
            'Content-Type': 'application/json; charset=utf-8',
            'Cache-Control': cacheControl,
            ...(deprecation ? deprecationHeaders(deprecation) : {}),
          };
          const kept = hot.keep(ctx.url, { access, body, headers, epoch, maxAgeSeconds: policy.ttl });
          ctx.set(kept.headers);
          ctx.body = kept.body;
          if (notModified(ctx.headers, kept.etag)) ctx.status = 304;
        } else if (typeof body === 'string') {
          // An HTML page, or pre-serialised JSON from the cache: sent as is, never parsed again.
          ctx.type = html ? 'text/html; charset=utf-8' : 'application/json';
          ctx.body = body;
        } else {
          ctx.body = body;
        }
      });
    },
    document(registry) {
      const responses: RouteConfig['responses'] = {
        [spec.status ?? 200]: {
          description: successText[spec.status ?? 200]!,
          content: {
            [html
              ? 'text/html'
              : spec.produces === 'event-stream'
                ? 'text/event-stream'
                : spec.produces === 'csv'
                  ? 'text/csv'
                  : spec.produces === 'png'
                    ? 'image/png'
                    : spec.produces === 'svg'
                      ? 'image/svg+xml'
                      : 'application/json']: {
              schema: spec.response,
            },
          },
        },
        422: { description: 'Validation error', content: { 'application/json': { schema: ValidationErrorResponse } } },
      };
      if (policy?.hot) responses[304] = { description: 'Not Modified: If-None-Match names the ETag of the current answer' };
      if (spec.redirects) responses[spec.redirects] = { description: 'Found: Location names where to go' };
      const accessErrors = access === 'signed' ? [] : access === 'free' ? [429] : access === 'auth' ? [401, 429] : [401, 403, 429];
      // A multipart body busboy cannot parse (a broken part header) is a 400.
      const bodyErrors = spec.bodyType === 'multipart' ? [400] : [];
      for (const status of [...accessErrors, ...bodyErrors, ...(spec.errors ?? [])]) {
        responses[status] = { description: statusText[status] ?? 'Error', content: { 'application/json': { schema: ErrorResponse } } };
      }
      registry.registerPath({
        method: spec.method,
        path: spec.path,
        summary: spec.summary,
        description: deprecation
          ? `${spec.description ?? ''} Deprecated: use ${deprecation.successor}; sunset ${deprecation.sunset}.`.trim()
          : spec.description,
        deprecated: deprecation ? true : undefined,
        tags: spec.tags,
        request: {
          params: spec.params as never,
          query: spec.query as never,
          headers: spec.headers as never,
          ...(spec.body
            ? {
                body: {
                  // Required when an empty body would not do (login, create); optional where every field is.
                  required: !spec.body.safeParse({}).success,
                  content: {
                    [spec.bodyType === 'form'
                      ? 'application/x-www-form-urlencoded'
                      : spec.bodyType === 'multipart'
                        ? 'multipart/form-data'
                        : 'application/json']: { schema: spec.body },
                  },
                },
              }
            : {}),
        },
        ...(access === 'free'
          ? {}
          : access === 'signed'
            ? { security: [] }
            : {
                security:
                  access === 'admin'
                    ? [{ adminToken: [] }, { sessionCookie: [] }]
                    : [{ apiKey: [] }, { apiKeyHeader: [] }, { sessionCookie: [] }],
              }),
        'x-access': access,
        responses,
      });
    },
  };
}

const successText: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  302: 'Found: continue at the Location header',
  303: 'See Other: continue at the Location header',
};

const statusText: Record<number, string> = {
  400: 'Bad request',
  401: 'Missing or invalid credentials',
  403: 'Tier too low, not the owner, or not an administrator',
  409: 'Conflict',
  426: 'Upgrade Required: a WebSocket endpoint',
  429: 'Rate limit exceeded: see Retry-After',
  404: 'Not found',
  503: 'Data store unavailable: detail is holo_data_unavailable',
};
