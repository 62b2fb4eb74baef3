// The one JSON-call helper of the tests: any method, a JSON body, a cookie and headers, against a
// stack or any server's base URL; and a registration. The body a call answers has the type of the
// response schema of the route it reaches (routeTypes.ts), unknown where no route is known.
import type { ResponseBody } from './routeTypes.js';

type Issue = { loc: (string | number)[]; msg: string; type: string };
/**
 * What a refusal answers instead of the route's body: {detail}, text, or for a 422 the list of
 * issues (typed as both, so a test reads it as its status says), and for some an `error` code.
 */
type Refusal = { detail: string & [Issue, ...Issue[]]; error?: string };

export type Call<Body = unknown> = { status: number; body: Body & Refusal; headers: Headers; cookie: string | null };
export async function call<const Method extends string, const Path extends string>(
  server: { url: string } | string,
  method: Method,
  path: Path,
  opts: { body?: unknown; cookie?: string | null; headers?: Record<string, string> } = {},
): Promise<Call<ResponseBody<Method, Path>>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  if (opts.cookie) headers['Cookie'] = opts.cookie;
  const base = typeof server === 'string' ? server : server.url;
  const res = await fetch(base + path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  const setCookie = res.headers.get('set-cookie');
  return {
    status: res.status,
    body: text ? (JSON.parse(text) as ResponseBody<Method, Path> & Refusal) : (null as never),
    headers: res.headers,
    cookie: setCookie ? setCookie.split(';')[0]! : null,
  };
}
/** `call` with an account's API key, or anonymously with null. */
export const callAs = <const Method extends string, const Path extends string>(
  server: { url: string },
  account: { headers: Record<string, string> } | null,
  method: Method,
  path: Path,
  body?: unknown,
) => call(server, method, path, { body, headers: account?.headers });
/**
 * The tests' caller of a stack: `call(account, METHOD, path, body?)` with the account's API key, or
 * anonymously with null; typed like `call`. `server` is read at each call (stacks start in before()).
 */
export const callerOf =
  (server: () => { url: string }) =>
  <const Method extends string, const Path extends string>(
    account: { headers: Record<string, string> } | null,
    method: Method,
    path: Path,
    body?: unknown,
  ) =>
    callAs(server(), account, method, path, body);
export const register = (s: { url: string }, username: string, email = `${username}@example.com`, password = 'correct horse battery') =>
  call(s, 'POST', '/auth/register', { body: { username, email, password } });
