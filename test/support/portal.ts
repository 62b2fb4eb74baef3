// A visitor of the developer portal without a browser: a cookie jar, form posts, and the
// csrf_token read from the page the way a browser would submit it.
export type PortalResponse = { status: number; text: string; headers: Headers; json(): any };

export class PortalVisitor {
  readonly cookies = new Map<string, string>();
  constructor(readonly origin: string) {}

  private remember(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
      if (attributes.some((a) => /max-age=0/i.test(a.trim()))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(method: string, path: string, opts: { form?: Record<string, string>; accept?: string } = {}): Promise<PortalResponse> {
    const headers: Record<string, string> = { Accept: opts.accept ?? 'text/html' };
    if (this.cookies.size) headers['Cookie'] = this.cookieHeader;
    if (opts.form) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(this.origin + path, {
      method,
      headers,
      body: opts.form ? new URLSearchParams(opts.form).toString() : undefined,
      redirect: 'manual',
    });
    this.remember(res.headers);
    const text = await res.text();
    return { status: res.status, text, headers: res.headers, json: () => JSON.parse(text) };
  }

  get(path: string, accept?: string) {
    return this.request('GET', path, { accept });
  }

  post(path: string, form: Record<string, string>, accept?: string) {
    return this.request('POST', path, { form, accept });
  }

  /** The csrf_token a form on `path` carries for this visitor right now. */
  async csrfFrom(path: string): Promise<string> {
    const page = await this.get(path);
    const token = /name="csrf_token" value="([^"]+)"/.exec(page.text)?.[1];
    if (!token) throw new Error(`no csrf_token on ${path} (status ${page.status})`);
    return token;
  }

  /** Signs up through the home page's form; the visitor then holds a session. */
  async signUp(username: string, password = 'correct horse battery'): Promise<PortalResponse> {
    return this.post('/register', { username, email: `${username}@example.com`, password, csrf_token: await this.csrfFrom('/') });
  }
}

/** The new key shown on the page after POST /keys/create. */
export const shownKey = (html: string) => /value="(holo_[A-Za-z0-9_-]+)"/.exec(html)?.[1] ?? null;
