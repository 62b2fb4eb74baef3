// The developer portal on its own origin: pages, CSRF-protected forms, key creation shown once,
// revocation that the API honours at once, the /dev redirect, and a real headless Chromium
// walking the whole path a developer takes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { TIERS, OFFERED_TIERS } from '../schemas/tiers.js';
import { DEPRECATIONS } from '../api/http/deprecations.js';
import { CHANGE_TYPES } from '../api/portal/changelog.js';
import { PortalVisitor, shownKey } from './support/portal.js';
import { accountWithKey } from './support/accounts.js';
import { createTestCards } from './support/catalogue.js';
import { startStack, type Stack } from './support/stack.js';
import { call } from './support/http.js';

let stack: Stack;
let portal: string;
before(async () => {
  stack = await startStack({ demo: 'none' });
  portal = stack.server.portalUrl;
});
after(async () => {
  await stack?.close();
});

const apiWithKey = (key: string, path = '/api/keys/') => call(stack, 'GET', path, { headers: { Authorization: `Bearer ${key}` } });
const enabledAt = async (username: string) =>
  (await stack.stores.pg.pool.query<{ at: Date | null }>('SELECT developer_enabled_at AS at FROM users WHERE username = $1', [username]))
    .rows[0]?.at ?? null;

/** A signed-up visitor with API access enabled. */
async function developer(username: string): Promise<PortalVisitor> {
  const v = new PortalVisitor(portal);
  assert.equal((await v.signUp(username)).status, 303);
  assert.equal((await v.post('/enable', { csrf_token: await v.csrfFrom('/enable') })).status, 200);
  return v;
}

describe('portal origin and pages', () => {
  it('runs on its own origin; /dev on the API origin answers 301 there', async () => {
    assert.notEqual(new URL(portal).port, new URL(stack.url).port);
    for (const [from, to] of [
      ['/dev', '/'],
      ['/dev/', '/'],
      ['/dev/changelog', '/changelog'],
      ['/dev/pricing?x=1', '/pricing?x=1'],
      ['/dev/keys/create', '/keys/create'],
      ['/dev/sets', '/sets'],
    ] as [string, string][]) {
      const res = await fetch(stack.url + from, { redirect: 'manual' });
      assert.equal(res.status, 301, from);
      assert.equal(res.headers.get('location'), portal + to, from);
    }
  });

  it('serves every page as script-free HTML with a strict content policy, to visitors signed in or not', async () => {
    const anonymous = new PortalVisitor(portal);
    const member = await developer('pagewalker');
    for (const visitor of [anonymous, member]) {
      for (const path of ['/', '/enable', '/dashboard', '/pricing', '/docs', '/changelog', '/dev/changelog']) {
        const res = await visitor.get(path);
        assert.equal(res.status, 200, path);
        assert.match(res.headers.get('content-type')!, /^text\/html; charset=utf-8/, path);
        assert.doesNotMatch(res.text, /<script/i, path);
        assert.match(res.text, /<link rel="stylesheet" href="\/static\/portal.css">/, path);
        assert.match(res.headers.get('content-security-policy')!, /default-src 'none'.*form-action 'self'.*frame-ancestors 'none'/, path);
        assert.equal(res.headers.get('cache-control'), 'no-store', path);
      }
    }
    const css = await fetch(`${portal}/static/portal.css`);
    assert.deepEqual([css.status, css.headers.get('content-type')], [200, 'text/css; charset=utf-8']);
    // Signed out, the dashboard asks to sign in; signed in, it is the account's.
    assert.match((await anonymous.get('/dashboard')).text, /Sign in to see your keys/);
    assert.match((await member.get('/dashboard')).text, /<strong>pagewalker<\/strong>/);
  });

  it('GET /login answers JSON: who is signed in and how to sign in', async () => {
    const anonymous = await new PortalVisitor(portal).get('/login', 'application/json');
    assert.equal(anonymous.status, 200);
    assert.match(anonymous.headers.get('content-type')!, /^application\/json/);
    const body = anonymous.json();
    assert.deepEqual([body.authenticated, body.user, body.login.action, body.login.method], [false, null, '/login', 'POST']);
    assert.match(body.csrf_token, /^[\w-]+\.[\w-]+\.[\w-]{43}$/, 'a signed JWT');
    const member = await developer('jsonlogin');
    const signedIn = (await member.get('/login', 'application/json')).json();
    assert.deepEqual(
      [signedIn.authenticated, signedIn.user.username, signedIn.user.developer_enabled, signedIn.after_login],
      [true, 'jsonlogin', true, '/dashboard'],
    );
  });

  it('/pricing lists every offered tier with its limits from the tier table', async () => {
    const page = (await new PortalVisitor(portal).get('/pricing')).text;
    for (const t of OFFERED_TIERS) {
      const tier = TIERS[t];
      const row = new RegExp(`<strong>${tier.label}</strong>[\\s\\S]*?</tr>`).exec(page)?.[0];
      assert.ok(row, `${tier.label} has a row`);
      const cells = [...row.matchAll(/<td class="num">([^<]*)<\/td>/g)].map((m) => m[1]);
      assert.deepEqual(
        cells.slice(1, 4),
        [tier.perMinute.toLocaleString('en'), tier.perDay === null ? 'unlimited' : tier.perDay.toLocaleString('en'), String(tier.keys)],
        tier.label,
      );
    }
    assert.match(page, /legacy Business \(legacy\) tier/);
  });

  it("/docs renders every operation of the API's OpenAPI document", async () => {
    const doc = (await (await fetch(`${stack.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const page = (await new PortalVisitor(portal).get('/docs')).text;
    let operations = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of Object.keys(item)) {
        operations++;
        assert.ok(
          page.includes(`<span class="badge ${method}">${method}</span> <code>${path.replace(/&/g, '&amp;')}</code>`),
          `${method} ${path}`,
        );
      }
    }
    assert.ok(operations > 50, `${operations} operations`);
    assert.match(page, new RegExp(`${operations} operations`));
  });

  it("the change log is dated, typed and newest first, with the spec's releases and every deprecation", async () => {
    const page = (await new PortalVisitor(portal).get('/changelog')).text;
    const unmarked = (html: string) => html.replace(/ aria-current="page"/g, '');
    assert.equal(unmarked((await new PortalVisitor(portal).get('/dev/changelog')).text), unmarked(page));
    const entries = [
      ...page.matchAll(/<time datetime="(\d{4}-\d{2}-\d{2})">\1<\/time> <span class="badge (\w+)">\2<\/span> <strong>([^<]+)<\/strong>/g),
    ].map((m) => ({ date: m[1]!, type: m[2]!, title: m[3]! }));
    assert.ok(entries.length >= 6);
    for (const e of entries) assert.ok((CHANGE_TYPES as readonly string[]).includes(e.type), e.type);
    assert.deepEqual(
      entries.map((e) => e.date),
      [...entries.map((e) => e.date)].sort().reverse(),
      'newest first',
    );
    for (const [date, title] of [
      ['2026-04-01', 'Marketplace launch'],
      ['2026-05-07', 'v1.14'],
      ['2026-06-04', 'Data API v2'],
    ] as [string, string][]) {
      assert.ok(
        entries.some((e) => e.date === date && e.title === title),
        title,
      );
    }
    for (const d of DEPRECATIONS) {
      assert.ok(
        entries.some((e) => e.type === 'deprecation' && e.date === d.announced && e.title.includes(d.path)),
        d.path,
      );
      // Spec, Versioning 3: at least 90 days between the announcement and the end.
      assert.ok(Date.parse(d.sunset) - Date.parse(d.announced) >= 90 * 86_400_000, `${d.path} sunset is 90+ days after its announcement`);
    }
  });

  it('publishes its own OpenAPI document at version 0.1.0, forms described as urlencoded', async () => {
    const doc = (await (await fetch(`${portal}/openapi.json`)).json()) as any;
    assert.equal(doc.info.version, '0.1.0');
    for (const path of [
      '/',
      '/login',
      '/enable',
      '/dashboard',
      '/keys/create',
      '/keys/{key_id}/revoke',
      '/pricing',
      '/docs',
      '/changelog',
      '/dev/changelog',
      '/logout',
    ])
      assert.ok(doc.paths[path], path);
    assert.ok(doc.paths['/keys/create'].post.requestBody.content['application/x-www-form-urlencoded']);
    assert.ok(doc.paths['/dashboard'].get.responses['200'].content['text/html']);
    assert.deepEqual(Object.keys(doc.paths['/logout']).sort(), ['get', 'post']);
  });
});

describe('forms and CSRF', () => {
  it('signs up through the form (303 to /enable) and signs in by username or e-mail (303 to the dashboard)', async () => {
    const v = new PortalVisitor(portal);
    const signUp = await v.signUp('formuser');
    assert.deepEqual([signUp.status, signUp.headers.get('location')], [303, '/enable']);
    assert.ok(v.cookies.has('tcg_session'));
    const other = new PortalVisitor(portal);
    const wrong = await other.post(
      '/login',
      { username: 'formuser', password: 'not the password', csrf_token: await other.csrfFrom('/') },
      'application/json',
    );
    assert.deepEqual([wrong.status, wrong.json().detail, other.cookies.has('tcg_session')], [401, 'Invalid username or password', false]);
    const ok = await other.post('/login', {
      username: 'FormUser@Example.com',
      password: 'correct horse battery',
      csrf_token: await other.csrfFrom('/'),
    });
    assert.deepEqual([ok.status, ok.headers.get('location')], [303, '/enable']);
    assert.equal((await other.get('/login', 'application/json')).json().user.username, 'formuser');
  });

  it("refuses POST /enable with a missing, forged, other visitor's or pre-sign-in token (422) and changes nothing", async () => {
    const v = new PortalVisitor(portal);
    const anonymousToken = await v.csrfFrom('/');
    await v.signUp('csrfvictim');
    const stranger = new PortalVisitor(portal);
    await stranger.signUp('csrfstranger');
    const strangersToken = await stranger.csrfFrom('/enable');
    for (const [why, form] of [
      ['missing', {}],
      ['empty', { csrf_token: '' }],
      ['forged', { csrf_token: 'A'.repeat(43) }],
      ["another visitor's", { csrf_token: strangersToken }],
      ['issued before sign-in', { csrf_token: anonymousToken }],
    ] as [string, Record<string, string>][]) {
      const res = await v.post('/enable', form, 'application/json');
      assert.equal(res.status, 422, why);
      assert.deepEqual(
        res.json(),
        {
          detail: [
            {
              loc: ['body', 'csrf_token'],
              msg: 'missing or invalid CSRF token: reload the page and submit the form again',
              type: 'value_error.csrf',
            },
          ],
        },
        why,
      );
    }
    assert.equal(await enabledAt('csrfvictim'), null, 'still not enabled');
    // Without the holo_csrf cookie (a cross-site post cannot send it) even the right token fails.
    const token = await v.csrfFrom('/enable');
    const cookieless = await fetch(`${portal}/enable`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Cookie: `tcg_session=${v.cookies.get('tcg_session')}`,
        Accept: 'application/json',
      },
      body: new URLSearchParams({ csrf_token: token }).toString(),
    });
    assert.equal(cookieless.status, 422);
    const done = await v.post('/enable', { csrf_token: token });
    assert.equal(done.status, 200);
    assert.match(done.text, /API access is enabled/);
    assert.ok(await enabledAt('csrfvictim'));
  });

  it('shows a browser its validation errors as a page with status 422', async () => {
    const v = new PortalVisitor(portal);
    await v.signUp('browserish');
    const res = await v.post('/enable', { csrf_token: 'nope' });
    assert.equal(res.status, 422);
    assert.match(res.headers.get('content-type')!, /^text\/html/);
    assert.match(res.text, /Please check the form[\s\S]*csrf_token: missing or invalid CSRF token/);
  });

  it("form posts without a session are 401, and sign-up errors keep the API's messages", async () => {
    const v = new PortalVisitor(portal);
    const token = await v.csrfFrom('/');
    for (const path of ['/enable', '/keys/create', '/keys/1/revoke']) {
      const res = await v.post(path, { csrf_token: token }, 'application/json');
      assert.equal(res.status, 401, path);
    }
    await new PortalVisitor(portal).signUp('takenname');
    const again = await v.post(
      '/register',
      { username: 'TakenName', email: 'x@example.com', password: 'long enough pw', csrf_token: token },
      'application/json',
    );
    assert.deepEqual([again.status, again.json().detail], [400, 'Username already taken']);
    const invalid = await v.post(
      '/register',
      { username: 'ok-name', email: 'not-mail', password: 'short', csrf_token: token },
      'application/json',
    );
    assert.equal(invalid.status, 422);
    assert.deepEqual(
      invalid.json().detail.map((i: { loc: string[] }) => i.loc.join('.')),
      ['body.email', 'body.password'],
    );
  });
});

describe('keys in the portal', () => {
  it('creates a key only once access is enabled, shows it once, and the API accepts it', async () => {
    const v = new PortalVisitor(portal);
    await v.signUp('keymaker');
    // The dashboard offers no form before access is enabled; a hand-made post is refused.
    const early = await v.post('/keys/create', { key_name: 'too soon', csrf_token: await v.csrfFrom('/enable') }, 'application/json');
    assert.deepEqual([early.status, early.json().detail], [403, 'Enable API access first (/enable)']);
    await v.post('/enable', { csrf_token: await v.csrfFrom('/enable') });
    const created = await v.post('/keys/create', { key_name: 'Production server', csrf_token: await v.csrfFrom('/dashboard') });
    assert.equal(created.status, 200);
    const key = shownKey(created.text);
    assert.ok(key, 'the new key is on the page');
    assert.match(created.text, /only time it is shown/);
    assert.equal(created.headers.get('cache-control'), 'no-store');
    assert.equal(created.headers.get('referrer-policy'), 'no-referrer');
    assert.equal((await apiWithKey(key)).status, 200);
    const later = await v.get('/dashboard');
    assert.ok(!later.text.includes(key), 'never shown again');
    assert.ok(later.text.includes(`${key.slice(0, 12)}…`), 'listed by its prefix');
    assert.match(later.text, /Production server/);
    // Free tier: one key. A second is refused and nothing is created.
    const second = await v.post('/keys/create', { key_name: 'another', csrf_token: await v.csrfFrom('/dashboard') }, 'application/json');
    assert.deepEqual([second.status, second.json().detail], [403, 'The Free tier allows 1 API key; revoke one first']);
    const count = (
      await stack.stores.pg.pool.query(
        `SELECT count(*)::int AS n FROM api_keys k JOIN users u ON u.id = k.user_id WHERE u.username = 'keymaker'`,
      )
    ).rows[0].n;
    assert.equal(count, 1);
  });

  it('names a key "My Key" when the name is left empty, and refuses an over-long name with 422', async () => {
    const v = await developer('namer');
    const tooLong = await v.post(
      '/keys/create',
      { key_name: 'x'.repeat(101), csrf_token: await v.csrfFrom('/dashboard') },
      'application/json',
    );
    assert.equal(tooLong.status, 422);
    assert.deepEqual(tooLong.json().detail[0].loc, ['body', 'key_name']);
    const unnamed = await v.post('/keys/create', { key_name: '', csrf_token: await v.csrfFrom('/dashboard') });
    assert.equal(unnamed.status, 200);
    assert.match(unnamed.text, /Your new key “My Key”/);
  });

  it("revokes an own key (the API then answers 401); another developer's key is 404 and keeps working", async () => {
    const owner = await developer('revoker');
    const ownerKey = shownKey(
      (await owner.post('/keys/create', { key_name: 'mine', csrf_token: await owner.csrfFrom('/dashboard') })).text,
    )!;
    const ownerKeyId = (
      await stack.stores.pg.pool.query(`SELECT k.id FROM api_keys k JOIN users u ON u.id = k.user_id WHERE u.username = 'revoker'`)
    ).rows[0].id as number;
    const intruder = await developer('intruder');
    const theft = await intruder.post(
      `/keys/${ownerKeyId}/revoke`,
      { csrf_token: await intruder.csrfFrom('/dashboard') },
      'application/json',
    );
    assert.equal(theft.status, 404);
    assert.equal((await apiWithKey(ownerKey)).status, 200, 'untouched');
    const badId = await owner.post('/keys/abc/revoke', { csrf_token: await owner.csrfFrom('/dashboard') }, 'application/json');
    assert.deepEqual([badId.status, badId.json().detail[0].loc], [422, ['path', 'key_id']]);
    const noToken = await owner.post(`/keys/${ownerKeyId}/revoke`, {}, 'application/json');
    assert.equal(noToken.status, 422);
    assert.equal((await apiWithKey(ownerKey)).status, 200, 'a refused form revokes nothing');
    const revoked = await owner.post(`/keys/${ownerKeyId}/revoke`, { csrf_token: await owner.csrfFrom('/dashboard') });
    assert.equal(revoked.status, 200);
    assert.match(revoked.text, /Key “mine” is revoked/);
    assert.equal((await apiWithKey(ownerKey)).status, 401);
    assert.doesNotMatch((await owner.get('/dashboard')).text, /<td>mine<\/td>/);
  });

  it('/logout (GET and POST) answers JSON and ends the session server-side', async () => {
    for (const method of ['GET', 'POST']) {
      const v = await developer(`leaver${method.toLowerCase()}`);
      const session = v.cookies.get('tcg_session')!;
      const res = await v.request(method, '/logout', { accept: 'application/json' });
      assert.equal(res.status, 200, method);
      assert.deepEqual(res.json(), { ok: true, signed_out: true });
      assert.equal(v.cookies.has('tcg_session'), false, 'cookie cleared');
      const replay = await fetch(`${stack.url}/auth/me`, { headers: { Cookie: `tcg_session=${session}` } });
      assert.equal(replay.status, 401, `${method}: the old cookie is no session any more`);
    }
  });

  it('keeps keys and passwords out of the logs', async () => {
    const v = new PortalVisitor(portal);
    await v.signUp('quietone', 'a very secret passphrase');
    await v.post('/enable', { csrf_token: await v.csrfFrom('/enable') });
    const key = shownKey((await v.post('/keys/create', { key_name: 'quiet', csrf_token: await v.csrfFrom('/dashboard') })).text)!;
    await apiWithKey(key, `/api/keys/?api_key=${key}`);
    const logs = stack.logLines.join('\n');
    assert.ok(logs.includes('/keys/create'), 'the portal requests are logged');
    assert.ok(!logs.includes(key) && !logs.includes(key.slice(5)), 'no key');
    assert.ok(!logs.includes('a very secret passphrase'), 'no password');
  });
});

describe('webhooks in the dashboard', () => {
  it('a Business developer registers an endpoint (secret shown once) and deletes it; other tiers are told where webhooks come from', async () => {
    const collector = await developer('collectorhooks');
    assert.match((await collector.get('/dashboard')).text, /Webhooks come with the Business tiers/);
    const refused = await collector.post(
      '/webhooks/create',
      { url: 'https://hooks.example.com/x', csrf_token: await collector.csrfFrom('/dashboard') },
      'application/json',
    );
    assert.equal(refused.status, 403);
    const shop = await developer('shophooks');
    await stack.stores.pg.pool.query(`UPDATE users SET tier = 'shop_basic' WHERE username = 'shophooks'`);
    const bad = await shop.post(
      '/webhooks/create',
      { url: 'http://example.com/x', csrf_token: await shop.csrfFrom('/dashboard') },
      'application/json',
    );
    assert.deepEqual([bad.status, bad.json().detail[0].loc], [422, ['body', 'url']]);
    const created = await shop.post('/webhooks/create', {
      url: 'https://hooks.example.com/holo',
      csrf_token: await shop.csrfFrom('/dashboard'),
    });
    assert.equal(created.status, 200);
    const secret = /value="(whsec_[\w-]+)"/.exec(created.text)?.[1];
    assert.ok(secret, 'the secret is on the page');
    const later = (await shop.get('/dashboard')).text;
    assert.ok(later.includes('https://hooks.example.com/holo') && later.includes('No deliveries yet.'));
    assert.ok(!later.includes(secret), 'shown once');
    const id = (
      await stack.stores.pg.pool.query(
        `SELECT e.id FROM webhook_endpoints e JOIN users u ON u.id = e.user_id WHERE u.username = 'shophooks'`,
      )
    ).rows[0].id;
    assert.equal((await shop.post(`/webhooks/${id}/delete`, { csrf_token: await shop.csrfFrom('/dashboard') })).status, 200);
    assert.equal((await stack.stores.pg.pool.query('SELECT count(*)::int AS n FROM webhook_endpoints WHERE id = $1', [id])).rows[0].n, 0);
  });
});

describe('in a real browser', () => {
  const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));

  it('a developer registers, enables access, creates a key, sees it once, revokes it; the API then refuses the key', async () => {
    assert.ok(executablePath, "Chromium is installed (test/run.sh installs Debian's chromium)");
    const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage({ javaScriptEnabled: false });
      await page.goto(`${portal}/`);
      const signUp = page.locator('form[action="/register"]');
      await signUp.getByLabel('Username').fill('browserdev');
      await signUp.getByLabel('E-mail').fill('browserdev@example.com');
      await signUp.getByLabel('Password').fill('correct horse battery');
      await signUp.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL(`${portal}/enable`);
      await page.getByRole('button', { name: 'Enable API access' }).click();
      await page.getByRole('heading', { name: 'API access is enabled' }).waitFor();
      await page.getByLabel('Key name').fill('Browser key');
      await page.getByRole('button', { name: 'Create key' }).click();
      const key = await page.locator('#new-key').inputValue();
      assert.match(key, /^holo_[\w-]{43}$/);
      assert.equal((await apiWithKey(key)).status, 200, 'the key works');
      await page.goto(`${portal}/dashboard`);
      assert.equal(await page.locator('#new-key').count(), 0, 'shown once');
      assert.ok(!(await page.content()).includes(key));
      await page.getByRole('button', { name: 'Revoke Browser key' }).click();
      await page.getByText('Key “Browser key” is revoked').waitFor();
      const refused = await apiWithKey(key);
      assert.equal(refused.status, 401);
      assert.deepEqual(refused.body, { detail: 'Invalid or revoked API key' });
    } finally {
      await browser.close();
    }
  });

  it('a buyer checks a listing photo: types the code in lower case, lands on the listing it names, follows the link', async () => {
    assert.ok(executablePath, "Chromium is installed (test/run.sh installs Debian's chromium)");
    const seller = await accountWithKey(stack, 'photoseller', 'pro');
    const json = { ...seller.headers, 'Content-Type': 'application/json' };
    await fetch(`${stack.url}/seller/become`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ display_name: 'Photo Shop', country: 'AT' }),
    });
    const card = Object.values(await createTestCards(stack.stores.pg.pool, 'verify-test', ['proof'])).map((c) => c.card)[0]!;
    const listing = (await (
      await fetch(`${stack.url}/seller/listings`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ card_id: card, price: 12, condition: 'NM' }),
      })
    ).json()) as { id: number; verification_code: string };
    const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage({ javaScriptEnabled: false });
      await page.goto(`${stack.url}/verify`);
      await page.getByLabel('Verification code').fill(listing.verification_code.toLowerCase());
      await page.getByRole('button', { name: 'Check' }).click();
      await page.waitForURL(`${stack.url}/verify/${listing.verification_code}`);
      await page.getByRole('heading', { name: `Code ${listing.verification_code}: verify-test proof` }).waitFor();
      assert.match(await page.locator('main, body').first().innerText(), /listed by Photo Shop \(@photoseller, active\)/);
      assert.equal(await page.locator(`img[src="/static/images/cards/${card}/small"]`).count(), 1);
      await page.getByRole('link', { name: 'See the listing' }).click();
      await page.waitForURL(`${stack.url}/api/listings/${listing.id}`);
      await page.goto(`${stack.url}/verify/ZZZZ0000`);
      await page.getByRole('heading', { name: 'No listing with this code' }).waitFor();
      await page.goto(`${stack.url}/help/verify-photo`);
      await page.getByRole('heading', { name: 'Photographing a card with its verification code' }).waitFor();
    } finally {
      await browser.close();
    }
  });
});
