// The one JSON-call helper of the tests: any method, a JSON body, a cookie and headers, against a
// stack or any server's base URL; and a registration.

export type Call = { status: number; body: any; headers: Headers; cookie: string | null };
export async function call(
  server: { url: string } | string,
  method: string,
  path: string,
  opts: { body?: unknown; cookie?: string | null; headers?: Record<string, string> } = {},
): Promise<Call> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  if (opts.cookie) headers['Cookie'] = opts.cookie;
  const base = typeof server === 'string' ? server : server.url;
  const res = await fetch(base + path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  const setCookie = res.headers.get('set-cookie');
  return {
    status: res.status,
    body: text ? JSON.parse(text) : null,
    headers: res.headers,
    cookie: setCookie ? setCookie.split(';')[0]! : null,
  };
}
/** `call` with an account's API key, or anonymously with null. */
export const callAs = (
  server: { url: string },
  account: { headers: Record<string, string> } | null,
  method: string,
  path: string,
  body?: unknown,
) => call(server, method, path, { body, headers: account?.headers });
export const register = (s: { url: string }, username: string, email = `${username}@example.com`, password = 'correct horse battery') =>
  call(s, 'POST', '/auth/register', { body: { username, email, password } });
