// Password guessing, as an attacker and a forgetful user meet it: failed sign-ins limited per
// name from one address, per name from every address (a ceiling that a browser that signed in
// before is not held to) and per client address (429 with Retry-After, even for the right
// password), unknown names answered exactly like known ones, success clearing the count, a short
// window ending, the counts shared by two API instances and by the portal, the client address
// behind a proxy, registrations and password changes limited too.
// Each test speaks from its own loopback address (127.0.0.x), so per-address counts stay its own.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import Koa from 'koa';
import { createUser } from '../api/auth/accounts.js';
import { countRegistration, loginSubject, throttledPasswordCheck } from '../api/auth/loginThrottle.js';
import { RateLimited } from '../schemas/errors.js';
import { clientAddress, proxySettings } from '../api/http/clientAddress.js';
import { buildDeps, startServer, type RunningServer } from '../api/server.js';
import { openRedis } from '../sql/stores/redis.js';
import { startStack, type Stack } from './support/stack.js';
import type { Call } from './support/http.js';
import type { ResponseBody } from './support/routeTypes.js';

const PASSWORD = 'correct horse battery';
const LIMITS = { perAccount: 3, perName: 8, perAddress: 6, registrations: 3 };

let stack: Stack;
/** A second API instance on the same PostgreSQL and Redis (its own Redis connection when Redis is a server), with a 3-second window. */
let short: RunningServer;
let closeShortRedis = async () => undefined as unknown;
/** A third instance, as behind one proxy that appends the client's address to X-Forwarded-For. */
let proxied: RunningServer;

before(async () => {
  stack = await startStack({
    demo: 'none',
    env: {
      HOLO_LOGIN_FAILURES_PER_ACCOUNT: String(LIMITS.perAccount),
      HOLO_LOGIN_FAILURES_PER_NAME: String(LIMITS.perName),
      HOLO_LOGIN_FAILURES_PER_ADDRESS: String(LIMITS.perAddress),
      HOLO_REGISTRATIONS_PER_ADDRESS: String(LIMITS.registrations),
      HOLO_LOGIN_WINDOW_SECONDS: '600',
    },
  });
  const config = { ...stack.config, loginThrottle: { ...stack.config.loginThrottle, windowSeconds: 3 } };
  const redis = stack.stores.redis.kind === 'external' ? await openRedis(config, stack.server.deps.log) : stack.stores.redis;
  if (redis !== stack.stores.redis) closeShortRedis = () => redis.close();
  short = await startServer(await buildDeps(config, { ...stack.stores, redis }, stack.server.deps.log), 0, '127.0.0.1');
  proxied = await startServer(
    await buildDeps({ ...stack.config, trustedProxyHops: 1 }, stack.stores, stack.server.deps.log),
    0,
    '127.0.0.1',
  );
});
after(async () => {
  await proxied?.close();
  await short?.close();
  await closeShortRedis();
  await stack?.close();
});

/** An answer whose body has the type of the route's response (a refusal's {detail} beside it), as the typed call's. */
type Answer<Body = unknown> = { status: number; body: Call<Body>['body']; headers: http.IncomingHttpHeaders };

/**
 * A request from a chosen loopback address (the server sees it as the client's address): raw
 * http.request, not the typed call, as fetch cannot choose the local address. Typed as call is.
 */
function request<const Method extends string, const Path extends string>(
  base: string,
  method: Method,
  path: Path,
  opts: { from: string; json?: unknown; form?: Record<string, string>; cookie?: string; headers?: Record<string, string> },
): Promise<Answer<ResponseBody<Method, Path>>> {
  const body =
    opts.json !== undefined ? JSON.stringify(opts.json) : opts.form !== undefined ? new URLSearchParams(opts.form).toString() : undefined;
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  if (opts.json !== undefined) headers['Content-Type'] = 'application/json';
  if (opts.form !== undefined) headers['Content-Type'] = 'application/x-www-form-urlencoded';
  if (opts.cookie) headers.Cookie = opts.cookie;
  return new Promise((resolve, reject) => {
    const req = http.request(base + path, { method, headers, localAddress: opts.from, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          // an HTML page: kept as text
        }
        resolve({ status: res.statusCode!, body: parsed as Answer<ResponseBody<Method, Path>>['body'], headers: res.headers });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The portal's sign-in page as JSON: its CSRF token (portal routes are not among the API routes call's types come from). */
const portalLoginPage = (from: string) =>
  request(stack.server.portalUrl, 'GET', '/login', { from }) as Promise<Answer<{ csrf_token: string }>>;

const login = (from: string, username: string, password: string, base = stack.url, cookie?: string) =>
  request(base, 'POST', '/auth/login', { from, json: { username, password }, cookie });

/** The holo_device cookie a sign-in set, as a Cookie header's pair. */
const deviceCookie = (a: Answer) => {
  const cookie = ([] as string[]).concat(a.headers['set-cookie'] ?? []).find((c) => c.startsWith('holo_device='));
  assert.ok(cookie, 'a device cookie');
  assert.match(cookie, /; HttpOnly;/);
  return cookie.split(';')[0]!;
};

let userCount = 0;
async function user(): Promise<{ username: string; email: string }> {
  const username = `thr${++userCount}`;
  await createUser(stack.server.deps.db, { username, email: `${username}@example.com`, password: PASSWORD });
  return { username, email: `${username}@example.com` };
}

let addressCount = 10;
const address = () => `127.0.0.${++addressCount}`;

const retryAfter = (a: Answer) => Number(a.headers['retry-after']);
const WRONG = { detail: 'Invalid username or password' };

describe('failed sign-ins per name from one address', () => {
  it(`after ${LIMITS.perAccount} wrong passwords, 429 with Retry-After from that address, even for the right password; not from elsewhere`, async () => {
    const { username } = await user();
    const from = address();
    for (let i = 0; i < LIMITS.perAccount; i++) {
      const wrong = await login(from, username, `wrong ${i}`);
      assert.deepEqual([wrong.status, wrong.body], [401, WRONG]);
    }
    const res = await login(from, username, PASSWORD);
    assert.equal(res.status, 429);
    assert.match(res.body.detail, /^Too many failed sign-in attempts\. Retry after \d+ seconds\.$/);
    assert.ok(retryAfter(res) >= 590 && retryAfter(res) <= 601, `Retry-After ${res.headers['retry-after']}`);
    assert.equal(res.headers['set-cookie'], undefined, 'no session, no device');
    assert.equal((await login(address(), username, PASSWORD)).status, 200, 'guesses from one address do not lock the account');
  });

  it('a burst of parallel guesses gets no more password checks than the limit', async () => {
    const { username } = await user();
    const from = address();
    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => login(from, username, `guess ${i}`)));
    const statuses = burst.map((r) => r.status).sort((a, b) => a - b);
    assert.deepEqual(statuses, [...Array<number>(LIMITS.perAccount).fill(401), ...Array<number>(10 - LIMITS.perAccount).fill(429)]);
  });

  it('an unknown username is counted and answered exactly like a known one with a wrong password', async () => {
    const { username } = await user();
    const transcript = async (name: string) => {
      const from = address();
      const answers = [];
      for (let i = 0; i <= LIMITS.perAccount; i++) answers.push(await login(from, name, 'not the password'));
      return answers.map((a) => ({
        status: a.status,
        // The seconds in a 429's text depend on when the window opened; the wording must not differ.
        body: { ...a.body, detail: String(a.body.detail).replace(/\d+/g, 'n') },
        headers: Object.keys(a.headers).sort(),
        contentType: a.headers['content-type'],
        retryAfter: a.headers['retry-after'] === undefined ? null : Math.round(retryAfter(a) / 10),
      }));
    };
    const known = await transcript(username);
    const unknown = await transcript('nobody-by-this-name');
    assert.deepEqual(
      known.map((a) => a.status),
      [...Array<number>(LIMITS.perAccount).fill(401), 429],
    );
    assert.deepEqual(unknown, known);
    assert.deepEqual(await transcript('nob\u0130dy'), known, 'a text that is no valid name at all');
  });

  it('every spelling of a name shares its count or names no account (case, padding, İ, fullwidth, combining marks)', async () => {
    const username = `admin${++userCount}`;
    await createUser(stack.server.deps.db, { username, email: `${username}@example.com`, password: PASSWORD });
    const fullwidth = (s: string) => s.replace(/[a-z0-9]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    // PostgreSQL's lower() under glibc or ICU locales folds U+0130 to 'i', and NFKC folds fullwidth
    // letters and a dotted i: were any of these looked up as the name, each would be a fresh count
    // of guesses at it. None signs in, even with the right password.
    const lookalikes = [
      username.replace('i', '\u0130'),
      username.toUpperCase().replace('I', '\u0130'),
      fullwidth(username),
      username.replace('i', 'i\u0307'),
      `${username}@example.com`.replace('i', '\u0130'),
    ];
    for (const spelling of lookalikes) assert.deepEqual([spelling, (await login(address(), spelling, PASSWORD)).status], [spelling, 401]);
    // ASCII spellings are the name itself: their failures add up in one count.
    const from = address();
    const spellings = [username.toUpperCase(), ` ${username} `, `${username[0]!.toUpperCase()}${username.slice(1)}`];
    for (const spelling of spellings.slice(0, LIMITS.perAccount))
      assert.equal((await login(from, spelling, 'wrong')).status, 401, spelling);
    assert.equal((await login(from, username, PASSWORD)).status, 429);
  });

  it('a successful sign-in clears the count: the next wrong passwords start from zero', async () => {
    const { username } = await user();
    const from = address();
    for (let i = 0; i < LIMITS.perAccount - 1; i++) assert.equal((await login(from, username, 'wrong')).status, 401);
    assert.equal((await login(from, username, PASSWORD)).status, 200);
    for (let i = 0; i < LIMITS.perAccount; i++) assert.equal((await login(from, username, 'wrong')).status, 401, `wrong #${i + 1}`);
    assert.equal((await login(from, username, PASSWORD)).status, 429);
  });
});

describe('guesses at one name from many addresses', () => {
  /** Wrong passwords at `name`, a new address every LIMITS.perAccount of them (the per-address pair never binds), until one past the ceiling. */
  const spread = async (name: string, cookie?: string) => {
    const statuses: number[] = [];
    while (statuses.length <= LIMITS.perName) {
      const from = address();
      for (let i = 0; i < LIMITS.perAccount && statuses.length <= LIMITS.perName; i++)
        statuses.push((await login(from, name, `guess ${statuses.length}`, stack.url, cookie)).status);
    }
    return statuses;
  };
  const stopped = [...Array<number>(LIMITS.perName).fill(401), 429];

  it(`stop at the name's ceiling of ${LIMITS.perName}, for a name that exists as for one that does not`, async () => {
    const { username } = await user();
    assert.deepEqual(await spread(username), stopped);
    assert.deepEqual(await spread('nobody-spread-out'), stopped);
    // Its owner, from a browser that never signed in to it, waits for the window too.
    assert.equal((await login(address(), username, PASSWORD)).status, 429);
  });

  it('do not lock out a browser that has signed in to the account before, from wherever it comes', async () => {
    const victim = await user();
    const home = address();
    const first = await login(home, victim.username, PASSWORD);
    assert.equal(first.status, 200);
    const device = deviceCookie(first);
    // The attacker's own device token, for an account of their own, is no device of the victim's.
    const attackers = deviceCookie(await login(address(), (await user()).username, PASSWORD));
    assert.deepEqual(await spread(victim.username, attackers), stopped);
    assert.equal((await login(address(), victim.username, PASSWORD)).status, 429, 'a browser without the device');
    assert.equal((await login(home, victim.username, PASSWORD)).status, 429, 'the home address without the device');
    const back = await login(home, victim.username, PASSWORD, stack.url, device);
    assert.equal(back.status, 200, 'home, with the device');
    assert.equal(
      (await login(address(), victim.username, PASSWORD, stack.url, deviceCookie(back))).status,
      200,
      'travelling, with the renewed device',
    );
    // A device does not lift the count of its own guesses from its address.
    const from = address();
    for (let i = 0; i < LIMITS.perAccount; i++) assert.equal((await login(from, victim.username, 'wrong', stack.url, device)).status, 401);
    assert.equal((await login(from, victim.username, PASSWORD, stack.url, device)).status, 429);
  });
});

describe('failed sign-ins per address', () => {
  it(`${LIMITS.perAddress} failures from one address across several usernames, then 429 for any name from it, not from elsewhere`, async () => {
    const from = address();
    const victim = await user();
    for (let i = 0; i < LIMITS.perAddress; i++) assert.equal((await login(from, `sprayed${i}`, 'Summer2026!')).status, 401);
    const refused = await login(from, victim.username, PASSWORD);
    assert.equal(refused.status, 429);
    assert.ok(retryAfter(refused) > 0);
    assert.equal((await login(address(), victim.username, PASSWORD)).status, 200, 'the account itself is not locked');
  });

  it('signing in to an own account does not reset the address count', async () => {
    const from = address();
    const own = await user();
    for (let i = 0; i < LIMITS.perAddress; i++) {
      assert.equal((await login(from, `guessed${i}`, 'wrong')).status, 401);
      if (i === LIMITS.perAddress - 2) assert.equal((await login(from, own.username, PASSWORD)).status, 200);
    }
    assert.equal((await login(from, `guessed-next`, 'wrong')).status, 429);
  });
});

describe('the window', () => {
  it('a user who types the right password after the window ends gets in', async () => {
    const { username } = await user();
    const from = address();
    // In parallel, so all three land well within the 3-second window.
    const wrong = await Promise.all(Array.from({ length: LIMITS.perAccount }, () => login(from, username, 'wrong', short.url)));
    assert.deepEqual(
      wrong.map((r) => r.status),
      Array<number>(LIMITS.perAccount).fill(401),
    );
    const locked = await login(from, username, PASSWORD, short.url);
    assert.equal(locked.status, 429);
    assert.ok(retryAfter(locked) >= 1 && retryAfter(locked) <= 4, `Retry-After ${locked.headers['retry-after']}`);
    // As a client would: wait as long as Retry-After says, then try again.
    await new Promise((r) => setTimeout(r, retryAfter(locked) * 1000));
    const later = await login(from, username, PASSWORD, short.url);
    assert.equal(later.status, 200);
    assert.match(String(later.headers['set-cookie']), /^tcg_session=/);
  });
});

describe('shared counts', () => {
  it('two API instances on one Redis count the same failures', async () => {
    const { username } = await user();
    const from = address();
    for (let i = 0; i < LIMITS.perAccount; i++) assert.equal((await login(from, username, 'wrong')).status, 401);
    assert.equal((await login(from, username, PASSWORD, short.url)).status, 429, 'the other instance refuses too');
  });

  it('the portal’s form sign-in counts with the API’s, and answers 429 with Retry-After', async () => {
    const { username } = await user();
    const from = address();
    const portalLogin = async (password: string) => {
      const page = await portalLoginPage(from);
      const cookie = String(page.headers['set-cookie']).split(';')[0]!;
      return request(stack.server.portalUrl, 'POST', '/login', {
        from,
        cookie,
        form: { username, password, csrf_token: page.body.csrf_token },
      });
    };
    for (let i = 0; i < LIMITS.perAccount - 1; i++) assert.equal((await portalLogin('wrong')).status, 401);
    assert.equal((await login(from, username, 'wrong')).status, 401);
    const refused = await portalLogin(PASSWORD);
    assert.equal(refused.status, 429);
    assert.ok(retryAfter(refused) > 0);
    assert.equal((await login(from, username, PASSWORD)).status, 429);
  });
});

describe('registration and password change', () => {
  it(`${LIMITS.registrations} registrations from one address (taken names included, API and portal together), then 429`, async () => {
    const from = address();
    const register = (username: string) =>
      request(stack.url, 'POST', '/auth/register', { from, json: { username, email: `${username}@example.com`, password: PASSWORD } });
    assert.equal((await register('regone')).status, 201);
    assert.equal((await register('regone')).status, 400, 'taken: counted too');
    const page = await portalLoginPage(from);
    const viaPortal = await request(stack.server.portalUrl, 'POST', '/register', {
      from,
      cookie: String(page.headers['set-cookie']).split(';')[0]!,
      form: { username: 'regtwo', email: 'regtwo@example.com', password: PASSWORD, csrf_token: page.body.csrf_token },
    });
    assert.equal(viaPortal.status, 303);
    const refused = await register('regthree');
    assert.equal(refused.status, 429);
    assert.match(refused.body.detail, /^Too many registrations from this address\. Retry after \d+ seconds\.$/);
    assert.ok(retryAfter(refused) > 0);
    const seller = await request(stack.url, 'POST', '/auth/register-seller', {
      from,
      json: { username: 'regfour', email: 'regfour@example.com', password: PASSWORD },
    });
    assert.equal(seller.status, 429, 'the seller variant shares the count');
    assert.equal(
      (
        await request(stack.url, 'POST', '/auth/register', {
          from: address(),
          json: { username: 'regthree', email: 'regthree@example.com', password: PASSWORD },
        })
      ).status,
      201,
    );
  });

  it(`a password change: ${LIMITS.perAccount} wrong current passwords, then 429 even for the right one; the password stays`, async () => {
    const { username } = await user();
    const from = address();
    const session = String((await login(from, username, PASSWORD)).headers['set-cookie']).split(';')[0]!;
    const change = (current: string) =>
      request(stack.url, 'POST', '/auth/change-password', {
        from,
        cookie: session,
        json: { current_password: current, new_password: 'a brand new password' },
      });
    for (let i = 0; i < LIMITS.perAccount; i++) {
      const wrong = await change('wrong');
      assert.deepEqual([wrong.status, wrong.body], [400, { detail: 'Current password is wrong' }]);
    }
    const refused = await change(PASSWORD);
    assert.equal(refused.status, 429);
    assert.ok(retryAfter(refused) > 0);
    assert.equal((await login(address(), username, PASSWORD)).status, 200, 'unchanged');
  });
});

describe('behind a proxy (HOLO_TRUSTED_PROXY_HOPS)', () => {
  const spray = (base: string, from: string, forwardedFor: string, n: number) =>
    Promise.all(
      Array.from({ length: n }, (_, i) =>
        request(base, 'POST', '/auth/login', {
          from,
          headers: { 'X-Forwarded-For': forwardedFor },
          json: { username: `proxied${i}`, password: 'wrong' },
        }),
      ),
    );

  it('with one trusted hop, clients the proxy tells apart are counted apart; what a client writes itself is not believed', async () => {
    // Every request reaches the instance from one address, the proxy's, as in compose's topology.
    const proxy = address();
    const victim = await user();
    assert.deepEqual(
      (await spray(proxied.url, proxy, '203.0.113.10', LIMITS.perAddress)).map((r) => r.status),
      Array<number>(LIMITS.perAddress).fill(401),
    );
    const over = (forwardedFor: string, username = 'proxied-next', password = 'wrong') =>
      request(proxied.url, 'POST', '/auth/login', {
        from: proxy,
        headers: { 'X-Forwarded-For': forwardedFor },
        json: { username, password },
      });
    assert.equal((await over('203.0.113.10')).status, 429, 'the guessing client is refused');
    // The proxy appends the address it saw: entries before it are the client's own words.
    assert.equal((await over('198.51.100.1, 203.0.113.10')).status, 429, 'a forged first entry changes nothing');
    assert.equal((await over('203.0.113.11', victim.username, PASSWORD)).status, 200, 'another client behind the same proxy signs in');
  });

  it('with none (the default), X-Forwarded-For is ignored: a client cannot leave its count by writing one', async () => {
    const from = address();
    await spray(stack.url, from, '203.0.113.20', LIMITS.perAddress);
    const res = await request(stack.url, 'POST', '/auth/login', {
      from,
      headers: { 'X-Forwarded-For': '203.0.113.21' },
      json: { username: 'proxied-next', password: 'wrong' },
    });
    assert.equal(res.status, 429);
  });

  it('registrations are counted per client behind the proxy', async () => {
    const proxy = address();
    const register = (forwardedFor: string, username: string) =>
      request(proxied.url, 'POST', '/auth/register', {
        from: proxy,
        headers: { 'X-Forwarded-For': forwardedFor },
        json: { username, email: `${username}@example.com`, password: PASSWORD },
      });
    for (let i = 0; i < LIMITS.registrations; i++) assert.equal((await register('203.0.113.30', `viaproxy${i}`)).status, 201);
    assert.equal((await register('203.0.113.30', 'viaproxy-more')).status, 429);
    assert.equal((await register('203.0.113.31', 'viaproxy-other')).status, 201);
  });

  it('the hot path reads the client address exactly as Koa does, for any X-Forwarded-For and hop count', async () => {
    const apps = [0, 1, 2, 3].map((hops) => {
      const app = new Koa(proxySettings(hops));
      app.use((ctx) => {
        ctx.body = { koa: ctx.ip, ours: clientAddress(ctx.req, hops) };
      });
      return http.createServer(app.callback()).listen(0, '127.0.0.1');
    });
    await Promise.all(apps.map((a) => new Promise((r) => a.once('listening', r))));
    try {
      const entry = fc.oneof(
        fc.ipV4(),
        fc.ipV6(),
        fc.constantFrom('', ' ', 'unknown', '::ffff:10.0.0.1'),
        fc.stringMatching(/^[ -+\--~]{0,12}$/),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 3 }),
          fc.option(fc.array(entry, { maxLength: 5 }), { nil: undefined }),
          async (hops, entries) => {
            const port = (apps[hops]!.address() as { port: number }).port;
            const headers = entries === undefined ? undefined : { 'X-Forwarded-For': entries.join(', ') };
            // This test's own Koa app, not an API route: its answer typed here.
            const res = (await request(`http://127.0.0.1:${port}`, 'GET', '/', { from: '127.0.0.1', headers })) as Answer<{
              ours: string;
              koa: string;
            }>;
            assert.equal(res.body.ours, res.body.koa);
          },
        ),
        { numRuns: 200 },
      );
    } finally {
      await Promise.all(apps.map((a) => new Promise((r) => a.close(r))));
    }
  });
});

describe('the limits as a service', () => {
  it('run without an HTTP request (an address in, a 429 error carrying its Retry-After out), as from a job or a test', async () => {
    const deps = stack.server.deps;
    const client = { ip: '198.51.100.7' };
    const subject = loginSubject('service-caller');
    for (let i = 0; i < LIMITS.perAccount; i++) assert.equal(await throttledPasswordCheck(deps, client, subject, async () => null), null);
    await assert.rejects(
      throttledPasswordCheck(deps, client, subject, async () => 'never checked'),
      (err: unknown) => err instanceof RateLimited && err.kind === 'rate_limited' && err.retryAfterSeconds >= 590,
    );
    for (let i = 0; i < LIMITS.registrations; i++) await countRegistration(deps, client);
    await assert.rejects(countRegistration(deps, client), (err: unknown) => err instanceof RateLimited && err.retryAfterSeconds > 0);
  });
});

describe('documentation', () => {
  it('OpenAPI lists 429 and states the limits on every throttled route, the API’s and the portal’s', async () => {
    const api = (await (await fetch(`${stack.url}/openapi.json`)).json()) as any;
    const portal = (await (await fetch(`${stack.server.portalUrl}/openapi.json`)).json()) as any;
    for (const [doc, path] of [
      [api, '/auth/login'],
      [api, '/auth/register'],
      [api, '/auth/register-seller'],
      [api, '/auth/change-password'],
      [portal, '/login'],
      [portal, '/register'],
    ] as const) {
      const op = doc.paths[path].post;
      assert.ok(op.responses['429'], `${path}: 429 documented`);
      assert.match(op.description, /limited to \d+ per/, `${path}: the limit stated`);
    }
  });
});
