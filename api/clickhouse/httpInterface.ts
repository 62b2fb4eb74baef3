// ClickHouse's HTTP interface at /clickhouse, for data teams in embedded mode (where ClickHouse is
// chDB inside this process and has no port of its own): unmodified ClickHouse clients connect with
// an API key as their password and run read-only queries on the documented tables, under the same
// limits as a server's reader user (sql/stores/clickhouseAccess.ts), with results streamed.
//
// What it speaks: the query in the URL (`query`) and/or the POST body (concatenated, as ClickHouse
// does); `default_format` or a trailing FORMAT clause; `param_<name>` for {name:Type} placeholders;
// credentials as basic auth, X-ClickHouse-User/X-ClickHouse-Key or user/password parameters;
// gzip or deflate responses with enable_http_compression=1; /ping. Errors are ClickHouse's text
// (`Code: N. DB::Exception: …`) with X-ClickHouse-Exception-Code, so clients report them as usual.
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type Router from '@koa/router';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { Context } from 'koa';
import { z } from 'zod';
import type { SessionPool } from '../../sql/stores/clickhouseSessions.js';
import { ErrorResponse } from '../../schemas/common.js';
import type { AppDeps } from '../deps.js';
import { readRawBody } from '../http/upload.js';
import type { AccessCheck, Route } from '../http/route.js';
import type { Principal } from '../auth/principal.js';
import { ClickHouseError, fromEngine } from './engineError.js';
import { readerStatement } from './readerStatement.js';
import { DomainError } from '../../schemas/errors.js';

export const CLICKHOUSE_PATH = '/clickhouse';
const MAX_QUERY_BYTES = 1_048_576;

type FormatInfo = { contentType: string; stream: 'rows' | 'whole'; headerLines?: number };
const TSV = 'text/tab-separated-values; charset=UTF-8';
const CSV = 'text/csv; charset=UTF-8; header=absent';
const NDJSON = 'application/x-ndjson; charset=UTF-8';
const JSON_TYPE = 'application/json; charset=UTF-8';
const BINARY = 'application/octet-stream';
const TEXT = 'text/plain; charset=UTF-8';
const FORMATS: Record<string, FormatInfo> = {
  TabSeparated: { contentType: TSV, stream: 'rows' },
  TSV: { contentType: TSV, stream: 'rows' },
  TabSeparatedRaw: { contentType: TSV, stream: 'rows' },
  TSVRaw: { contentType: TSV, stream: 'rows' },
  TabSeparatedWithNames: { contentType: TSV, stream: 'rows', headerLines: 1 },
  TSVWithNames: { contentType: TSV, stream: 'rows', headerLines: 1 },
  TabSeparatedWithNamesAndTypes: { contentType: TSV, stream: 'rows', headerLines: 2 },
  TSVWithNamesAndTypes: { contentType: TSV, stream: 'rows', headerLines: 2 },
  CSV: { contentType: CSV, stream: 'rows' },
  CSVWithNames: { contentType: CSV, stream: 'rows', headerLines: 1 },
  CSVWithNamesAndTypes: { contentType: CSV, stream: 'rows', headerLines: 2 },
  JSONEachRow: { contentType: NDJSON, stream: 'rows' },
  JSONLines: { contentType: NDJSON, stream: 'rows' },
  NDJSON: { contentType: NDJSON, stream: 'rows' },
  JSONStringsEachRow: { contentType: NDJSON, stream: 'rows' },
  JSONCompactEachRow: { contentType: NDJSON, stream: 'rows' },
  JSONCompactStringsEachRow: { contentType: NDJSON, stream: 'rows' },
  JSONCompactEachRowWithNames: { contentType: NDJSON, stream: 'rows', headerLines: 1 },
  JSONCompactEachRowWithNamesAndTypes: { contentType: NDJSON, stream: 'rows', headerLines: 2 },
  Native: { contentType: BINARY, stream: 'rows' },
  RowBinary: { contentType: BINARY, stream: 'rows' },
  RowBinaryWithNames: { contentType: BINARY, stream: 'whole' },
  RowBinaryWithNamesAndTypes: { contentType: BINARY, stream: 'whole' },
  JSON: { contentType: JSON_TYPE, stream: 'whole' },
  JSONStrings: { contentType: JSON_TYPE, stream: 'whole' },
  JSONCompact: { contentType: JSON_TYPE, stream: 'whole' },
  JSONCompactStrings: { contentType: JSON_TYPE, stream: 'whole' },
  JSONColumns: { contentType: JSON_TYPE, stream: 'whole' },
  JSONObjectEachRow: { contentType: JSON_TYPE, stream: 'whole' },
  Parquet: { contentType: BINARY, stream: 'whole' },
  Arrow: { contentType: BINARY, stream: 'whole' },
  ArrowStream: { contentType: BINARY, stream: 'whole' },
  ORC: { contentType: BINARY, stream: 'whole' },
  Avro: { contentType: BINARY, stream: 'whole' },
  Values: { contentType: TEXT, stream: 'whole' },
  Vertical: { contentType: TEXT, stream: 'whole' },
  Markdown: { contentType: TEXT, stream: 'whole' },
  Pretty: { contentType: TEXT, stream: 'whole' },
  PrettyCompact: { contentType: TEXT, stream: 'whole' },
  PrettySpace: { contentType: TEXT, stream: 'whole' },
  PrettyNoEscapes: { contentType: TEXT, stream: 'whole' },
  PrettyCompactMonoBlock: { contentType: TEXT, stream: 'whole' },
  XML: { contentType: 'application/xml; charset=UTF-8', stream: 'whole' },
};
const CONTENT_TYPES = [...new Set(Object.values(FORMATS).map((f) => f.contentType.split(';')[0]!))];

// URL parameters that belong to the protocol, not to the query's settings.
const PROTOCOL_PARAMS = new Set([
  'query',
  'database',
  'default_format',
  'query_id',
  'session_id',
  'session_timeout',
  'session_check',
  'user',
  'password',
  'quota_key',
  'compress',
  'decompress',
  'buffer_size',
  'wait_end_of_query',
  'enable_http_compression',
  'http_zlib_compression_level',
  'send_progress_in_http_headers',
  'http_headers_progress_interval_ms',
  'http_wait_end_of_query',
  'http_response_buffer_size',
  'add_http_cors_header',
  'api_key',
]);

type Credentials = { user: string | undefined; key: string | undefined };
function credentialsOf(ctx: Context): Credentials {
  const basic = /^Basic\s+(\S+)$/i.exec(ctx.get('authorization'))?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon < 0 ? { user: decoded, key: undefined } : { user: decoded.slice(0, colon), key: decoded.slice(colon + 1) };
  }
  const header = ctx.get('x-clickhouse-key');
  if (header) return { user: ctx.get('x-clickhouse-user') || undefined, key: header };
  const param = ctx.query['password'];
  return {
    user: typeof ctx.query['user'] === 'string' ? ctx.query['user'] : undefined,
    key: typeof param === 'string' ? param : undefined,
  };
}

async function queryText(ctx: Context): Promise<string> {
  const fromUrl = typeof ctx.query['query'] === 'string' ? ctx.query['query'] : '';
  if (ctx.method !== 'POST') return fromUrl;
  let body = await readRawBody(ctx, MAX_QUERY_BYTES).catch((err: unknown) => {
    throw new ClickHouseError(
      62,
      'SYNTAX_ERROR',
      `the query is larger than ${MAX_QUERY_BYTES} bytes (${(err as Error).message})`,
      (err as { status?: number }).status === 413 ? 413 : 400,
    );
  });
  const encoding = ctx.get('content-encoding').toLowerCase();
  try {
    if (encoding === 'gzip') body = zlib.gunzipSync(body, { maxOutputLength: MAX_QUERY_BYTES });
    else if (encoding === 'deflate') body = zlib.inflateSync(body, { maxOutputLength: MAX_QUERY_BYTES });
    else if (encoding !== '' && encoding !== 'identity')
      throw new ClickHouseError(
        48,
        'NOT_IMPLEMENTED',
        `Content-Encoding ${encoding} is not supported here: send gzip, deflate or none`,
        415,
      );
  } catch (err) {
    if (err instanceof ClickHouseError) throw err;
    throw new ClickHouseError(62, 'SYNTAX_ERROR', `the body does not decompress as ${encoding}`, 400);
  }
  return fromUrl && body.length ? `${fromUrl}\n${body.toString('utf8')}` : fromUrl || body.toString('utf8');
}

/** The protocol's own parameters with a fixed set of values: checked before anything else (and documented). */
const ProtocolQuery = z.object({
  query: z.string().optional().openapi({ description: 'the SQL (or its beginning, when the POST body continues it)' }),
  default_format: z.enum(Object.keys(FORMATS) as [string, ...string[]]).optional(),
  database: z.enum(['holo', 'default']).optional(),
  query_id: z.string().optional(),
  enable_http_compression: z.enum(['0', '1']).optional(),
});

/** Answers one request; the caller has authenticated it. */
async function answer(ctx: Context, sessions: SessionPool): Promise<void> {
  const protocol = ProtocolQuery.safeParse(ctx.query);
  if (!protocol.success) {
    const issue = protocol.error.issues[0]!;
    throw new ClickHouseError(36, 'BAD_ARGUMENTS', `parameter ${issue.path.join('.')}: ${issue.message}`);
  }
  const text = await queryText(ctx);
  if (text.trim() === '') {
    ctx.type = 'text/plain';
    ctx.body = 'Ok.\n';
    return;
  }
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.query)) {
    if (typeof value !== 'string') throw new ClickHouseError(62, 'SYNTAX_ERROR', `parameter ${name} is given more than once`);
    if (name.startsWith('param_')) params[name.slice(6)] = value;
    else if (!PROTOCOL_PARAMS.has(name))
      throw new ClickHouseError(164, 'READONLY', `Cannot modify '${name}' setting in readonly mode`, 403);
  }
  // ClickHouse's parser decides what the text is and whether it may run (readerStatement.ts);
  // what runs is its normal form, with the format this interface checked.
  const { statement, format: clause, kind } = await sessions.use((session) => readerStatement(session, text, params));
  const defaultFormat = typeof ctx.query['default_format'] === 'string' ? ctx.query['default_format'] : 'TabSeparated';
  const format = clause ?? defaultFormat;
  const info = FORMATS[format];
  if (!info)
    throw new ClickHouseError(73, 'UNKNOWN_FORMAT', `Unknown output format ${format}; formats: ${Object.keys(FORMATS).join(', ')}`);

  // Echoed in a header, so only what a header can carry.
  const asked = ctx.query['query_id'];
  const queryId = typeof asked === 'string' && /^[\w.:-]{1,128}$/.test(asked) ? asked : crypto.randomUUID();
  const accepts = ctx.get('accept-encoding').toLowerCase();
  const compress = ctx.query['enable_http_compression'] === '1';
  const encoding = compress && /\bgzip\b/.test(accepts) ? 'gzip' : compress && /\bdeflate\b/.test(accepts) ? 'deflate' : undefined;
  const headers: Record<string, string> = {
    'Content-Type': info.contentType,
    'X-ClickHouse-Query-Id': queryId,
    'X-ClickHouse-Format': format,
    'X-ClickHouse-Timezone': 'UTC',
    'X-ClickHouse-Server-Display-Name': 'holo',
    'Cache-Control': 'no-store',
    ...(encoding ? { 'Content-Encoding': encoding } : {}),
  };

  const controller = new AbortController();
  // A client that goes away mid-result stops the query (the response closes before it finished).
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  let chunks: AsyncIterator<Buffer>;
  let first: IteratorResult<Buffer>;
  try {
    // chDB streams SELECT results only; DESCRIBE, SHOW and EXISTS answers are small.
    if (info.stream === 'whole' || kind !== 'select') {
      const result = await sessions.use((s) =>
        Object.keys(params).length
          ? s.queryBindAsync(`${statement}\nFORMAT ${format}`, params, { format })
          : s.queryAsync(`${statement}\nFORMAT ${format}`, { format }),
      );
      headers['X-ClickHouse-Summary'] = JSON.stringify({ read_rows: String(result.rowsRead), read_bytes: String(result.bytesRead) });
      chunks = [Buffer.from(result.bytes())][Symbol.iterator]() as unknown as AsyncIterator<Buffer>;
      first = await chunks.next();
    } else {
      chunks = sessions.stream(`${statement}\nFORMAT ${format}`, params, format, controller.signal);
      first = await chunks.next();
    }
  } catch (err) {
    throw fromEngine(err);
  }

  // The first chunk is in hand: from here on the answer is a 200, and a later failure is written
  // into the body as ClickHouse does.
  ctx.respond = false;
  const res = ctx.res;
  res.writeHead(200, headers);
  const sink = encoding === 'gzip' ? zlib.createGzip({ level: 1 }) : encoding === 'deflate' ? zlib.createDeflate({ level: 1 }) : undefined;
  if (sink) sink.pipe(res);
  const out = sink ?? res;
  // A client gone away never drains: its close ends the wait too, and the loop below stops.
  const write = (chunk: Buffer) =>
    out.write(chunk)
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const done = () => {
            out.off('drain', done);
            res.off('close', done);
            resolve();
          };
          out.once('drain', done);
          res.once('close', done);
        });
  // Writes after the client went away fail; the close above is what ends the answer.
  res.on('error', () => undefined);
  sink?.on('error', () => undefined);
  let index = 0;
  try {
    for (let next = first; !next.done; next = await chunks.next()) {
      if (controller.signal.aborted || res.destroyed) break;
      let chunk = next.value;
      // Text formats with a header repeat it in every streamed chunk: only the first keeps it.
      if (index++ > 0 && info.headerLines) chunk = dropLines(chunk, info.headerLines);
      if (chunk.length) await write(chunk);
    }
  } catch (err) {
    out.write(`\n${fromEngine(err).text}`);
  } finally {
    await chunks.return?.();
    out.end();
  }
}

function dropLines(chunk: Buffer, lines: number): Buffer {
  let at = 0;
  for (let i = 0; i < lines; i++) {
    const nl = chunk.indexOf(10, at);
    if (nl < 0) return Buffer.alloc(0);
    at = nl + 1;
  }
  return chunk.subarray(at);
}

// One query at a time per account (or the operator): the reader sessions are few, and a caller's
// next query waits for its last one instead of taking a second session while others wait.
const lastQuery = new Map<string, Promise<void>>();
async function oneAtATime(caller: string, work: () => Promise<void>): Promise<void> {
  const before = lastQuery.get(caller) ?? Promise.resolve();
  let done!: () => void;
  const mine = before.then(() => new Promise<void>((resolve) => (done = resolve)));
  lastQuery.set(caller, mine);
  await before;
  try {
    await work();
  } finally {
    done();
    if (lastQuery.get(caller) === mine) lastQuery.delete(caller);
  }
}

function callerOf(ctx: Context): string {
  const principal = ctx.state.principal as Principal | undefined;
  return principal && 'user' in principal ? `user:${principal.user.id}` : (principal?.kind ?? 'anonymous');
}

function sendError(ctx: Context, err: ClickHouseError): void {
  ctx.status = err.status;
  ctx.set('X-ClickHouse-Exception-Code', String(err.code));
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'text/plain; charset=UTF-8';
  ctx.body = err.text;
}

const DESCRIPTION =
  "ClickHouse's HTTP interface over the embedded store, for ClickHouse clients (clickhouse-connect, @clickhouse/client, BI tools): read-only queries (SELECT, DESCRIBE, SHOW, EXISTS) on the documented tables (sql/README.md) under the reader limits, streamed. Authenticate with a Pro-or-higher API key or an administrator's key as the password, or a session of a Pro-or-higher (or administrator's) account (basic auth, X-ClickHouse-Key or password=; Authorization: Bearer and X-API-Key work too), or the operator token. Query errors are ClickHouse's text with X-ClickHouse-Exception-Code. On a deployment with a ClickHouse server this answers 404: connect to the server as its reader user.";

/** The interface as routes of the API (GET and POST, and /ping): mounted, access-checked (Pro and up, administrators, the operator) and documented. */
export function clickhouseHttpRoutes(deps: AppDeps) {
  const access = 'pro+|admin' as const;
  const handle = (checkAccess: AccessCheck) => async (ctx: Context) => {
    // A ClickHouse client's password is the API key; the user name is free (e.g. "holo").
    const { key } = credentialsOf(ctx);
    if (key) ctx.request.headers['x-api-key'] = key;
    await checkAccess(access, ctx);
    const sessions = deps.stores.ch.sessions?.readers;
    if (!sessions)
      throw new DomainError(
        'not_found',
        'This deployment runs a ClickHouse server: connect to it as its reader user (HOLO_CLICKHOUSE_READER_USER), see sql/README.md',
      );
    try {
      await oneAtATime(callerOf(ctx), () => answer(ctx, sessions));
    } catch (err) {
      if (err instanceof ClickHouseError) sendError(ctx, err);
      else throw err;
    }
  };
  const engineError = {
    description: 'ClickHouse error text: Code: N. DB::Exception: …',
    content: { 'text/plain': { schema: z.string() } },
  };
  const holoError = { 'application/json': { schema: ErrorResponse } };
  const responses = {
    200: {
      description: 'the result in the requested format (streamed)',
      content: Object.fromEntries(CONTENT_TYPES.map((t) => [t, { schema: z.string() }])),
    },
    400: engineError,
    401: { description: 'Not authenticated', content: holoError },
    403: {
      description: 'Forbidden: a tier below Pro, or a statement or table data teams may not use',
      content: { ...engineError.content, ...holoError },
    },
    404: { description: 'a deployment with a ClickHouse server (connect to it instead)', content: holoError },
    413: engineError,
    415: engineError,
    429: { description: 'Too many requests', content: holoError },
    503: { description: 'Service unavailable', content: holoError },
  };
  const route = (method: 'get' | 'post'): Route<'get' | 'post', typeof CLICKHOUSE_PATH> => ({
    access,
    method,
    path: CLICKHOUSE_PATH,
    integerParams: [],
    rawBody: method === 'post',
    mount(router: Router, checkAccess: AccessCheck) {
      for (const p of [CLICKHOUSE_PATH, `${CLICKHOUSE_PATH}/`]) router[method](p, handle(checkAccess));
    },
    document(registry: OpenAPIRegistry) {
      registry.registerPath({
        method,
        path: CLICKHOUSE_PATH,
        summary: `ClickHouse HTTP interface (${method.toUpperCase()})`,
        description: DESCRIPTION,
        tags: ['data'],
        security: [{ apiKey: [] }, { apiKeyHeader: [] }],
        'x-access': access,
        request: {
          query: ProtocolQuery,
          ...(method === 'post' ? { body: { content: { 'text/plain': { schema: z.string().openapi({ description: 'SQL' }) } } } } : {}),
        },
        responses,
      });
    },
  });
  const ping: Route<'get', `${typeof CLICKHOUSE_PATH}/ping`> = {
    access: 'free',
    method: 'get',
    path: `${CLICKHOUSE_PATH}/ping`,
    integerParams: [],
    rawBody: false,
    mount(router: Router) {
      router.get(`${CLICKHOUSE_PATH}/ping`, (ctx) => {
        ctx.type = 'text/plain';
        ctx.body = 'Ok.\n';
      });
    },
    document(registry: OpenAPIRegistry) {
      registry.registerPath({
        method: 'get',
        path: `${CLICKHOUSE_PATH}/ping`,
        summary: 'ClickHouse liveness, as clients probe it: Ok.',
        tags: ['data'],
        'x-access': 'free',
        responses: { 200: { description: 'Ok.', content: { 'text/plain': { schema: z.string() } } } },
      });
    },
  };
  return [route('get'), route('post'), ping];
}
