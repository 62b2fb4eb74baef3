// Headers on everything served: nosniff and the Content-Security-Policy on every answer of both
// apps, for every route in their OpenAPI documents (generated from the route tables, so a route
// added tomorrow is called here too), the static files and uploads beside them, errors, redirects
// and the hot path; and every HTML page opened in Chromium: no policy violation, every inline
// script and style allowed by its hash, the scan page's script running under it.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { API_SECURITY_HEADERS } from '../api/middleware/securityHeaders.js';
import { repoRoot } from '../sql/runtime/paths.js';
import { accountWithKey, type KeyedAccount } from './support/accounts.js';
import { createTestCards } from './support/catalogue.js';
import { callAs } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
let owner: KeyedAccount;
let cardId: number;
let uploads: { listing: string; avatar: string };

type Operation = {
  parameters?: { name: string; in: string; schema?: { type?: string; format?: string } }[];
  responses: Record<string, { content?: Record<string, unknown> }>;
};
type Doc = { paths: Record<string, Record<string, Operation>> };
let apiDoc: Doc;
let portalDoc: Doc;

before(async () => {
  stack = await startStack({ demo: 'none' });
  owner = await accountWithKey(stack, 'headerowner', 'enterprise');
  cardId = Object.values(await createTestCards(stack.stores.pg.pool, 'headers-test', ['alpha']))[0]!.card;
  const photo = fs.readFileSync(path.resolve(repoRoot, '..', 'shared', 'data', 'images', 'pokemon-sv3pt5', 'sv3pt5-6.webp'));
  const upload = async (where: string) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(photo)]), 'card.webp');
    const res = await fetch(stack.url + where, { method: 'POST', headers: owner.headers, body: form });
    assert.equal(res.status, 201, `${where}: ${await res.clone().text()}`);
    return (await res.json()) as Record<string, string>;
  };
  uploads = { listing: (await upload('/api/upload/listing-image')).url!, avatar: (await upload('/me/avatar')).avatar_url! };
  apiDoc = (await (await fetch(`${stack.url}/openapi.json`)).json()) as Doc;
  portalDoc = (await (await fetch(`${stack.server.portalUrl}/openapi.json`)).json()) as Doc;
});
after(async () => {
  await stack?.close();
});

const portalPolicy = () => {
  // The portal's own stricter policy (no script at all): what its middleware was given.
  return fetch(`${stack.server.portalUrl}/static/portal.css`).then((r) => r.headers.get('content-security-policy')!);
};

/** A concrete URL for an OpenAPI path: integer parameters 1 (card_id: a real card), uuids fresh, the rest a word. */
function concrete(template: string, op: Operation): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const schema = op.parameters?.find((p) => p.in === 'path' && p.name === name)?.schema ?? {};
    if (name === 'card_id') return String(cardId);
    if (schema.type === 'integer') return '1';
    if (schema.format === 'uuid') return crypto.randomUUID();
    return name === 'code' ? 'ABCDEF' : 'x';
  });
}

const operations = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([template, methods]) => Object.entries(methods).map(([method, op]) => ({ template, method, op })));

const producesHtml = (op: Operation) => Object.values(op.responses).some((r) => r.content && 'text/html' in r.content);

/** Headers only: a stream (server-sent events) is cancelled once they arrive. */
async function headersOf(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers }> {
  const res = await fetch(url, { redirect: 'manual', ...init });
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) await res.body?.cancel();
  else await res.arrayBuffer();
  return { status: res.status, headers: res.headers };
}

function assertSecure(what: string, answer: { status: number; headers: Headers }, policy: string) {
  assert.ok(answer.status < 500, `${what}: ${answer.status}`);
  assert.equal(answer.headers.get('x-content-type-options'), 'nosniff', `${what} (${answer.status}): nosniff`);
  assert.equal(answer.headers.get('content-security-policy'), policy, `${what} (${answer.status}): CSP`);
}

describe('every answer', () => {
  it('every route of the API, each method, twice (the second GET of a hot route comes from the hot path): nosniff and the CSP', async () => {
    const policy = API_SECURITY_HEADERS['Content-Security-Policy']!;
    const ops = operations(apiDoc);
    assert.ok(ops.length > 100, `${ops.length} operations`);
    for (const pass of [1, 2])
      for (const { template, method, op } of ops) {
        const url = stack.url + concrete(template, op);
        assertSecure(`${method.toUpperCase()} ${template} #${pass}`, await headersOf(url, { method: method.toUpperCase() }), policy);
      }
    const held = ops.filter((o) => o.method === 'get' && stack.server.deps.cache.hot.get(concrete(o.template, o.op)) !== undefined);
    assert.ok(held.length > 0, 'the second pass met the hot path');
  });

  it('every route of the portal, as a browser (error pages) and as a program: nosniff and its CSP', async () => {
    const policy = await portalPolicy();
    assert.match(policy, /default-src 'none'/);
    for (const { template, method, op } of operations(portalDoc))
      for (const accept of ['text/html', 'application/json']) {
        const url = stack.server.portalUrl + concrete(template, op);
        const answer = await headersOf(url, { method: method.toUpperCase(), headers: { Accept: accept } });
        assertSecure(`portal ${method.toUpperCase()} ${template} (${accept})`, answer, policy);
      }
  });

  it('static files and uploads, errors, redirects, preflights and the OpenAPI documents', async () => {
    const policy = API_SECURITY_HEADERS['Content-Security-Policy']!;
    const cases: [string, string, RequestInit?][] = [
      ['card picture (placeholder)', `/static/images/cards/${cardId}/placeholder`],
      ['card picture (AVIF)', `/static/images/cards/${cardId}/placeholder`, { headers: { Accept: 'image/avif' } }],
      ['uploaded listing photo', uploads.listing],
      ['uploaded avatar', uploads.avatar],
      ['missing upload', `/static/images/avatars/${'0'.repeat(64)}.webp`],
      ['OpenAPI', '/openapi.json'],
      ['unknown path', '/no/such/thing'],
      ['wrong method', '/auth/login', { method: 'PUT' }],
      ['bad key', '/api/v2/games', { headers: { Authorization: 'Bearer holo_nope' } }],
      ['portal redirect', '/dev/changelog'],
      ['locale redirect', '/tcgs/headers-test', { headers: { Accept: 'text/html' } }],
      ['verify search redirect', '/verify?code=abcdef'],
      [
        'CORS preflight',
        '/api/v2/games',
        { method: 'OPTIONS', headers: { Origin: 'https://holo.example', 'Access-Control-Request-Method': 'GET' } },
      ],
      ['session-only route', '/auth/me'],
    ];
    for (const [what, where, init] of cases) assertSecure(what, await headersOf(stack.url + where, init), policy);
    const image = await headersOf(stack.url + uploads.avatar);
    assert.deepEqual([image.status, image.headers.get('content-type')], [200, 'image/webp']);
    const redirect = await headersOf(stack.url + '/verify?code=abcdef');
    assert.equal(redirect.status, 302);
    const portalPolicyValue = await portalPolicy();
    for (const where of ['/static/portal.css', '/openapi.json', '/no/such/page'])
      assertSecure(`portal ${where}`, await headersOf(stack.server.portalUrl + where), portalPolicyValue);
  });
});

describe('every HTML page in a browser', () => {
  const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
  let browser: Browser;
  before(async () => {
    assert.ok(executablePath, "Chromium is installed (test/run.sh installs Debian's chromium)");
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
  });

  const sha256 = (text: string) => `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  const directive = (policy: string, name: string) =>
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .find(([n]) => n === name)
      ?.slice(1) ?? [];

  /** Opens a page with scripts on; what the policy blocked, the inline blocks, and attributes no hash can allow. */
  async function open(url: string) {
    const page = await browser.newPage();
    try {
      // Strings, not functions: they run in the page (the DOM's types are not this file's).
      await page.addInitScript({
        content:
          "window.violations = []; document.addEventListener('securitypolicyviolation', (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sample));",
      });
      const res = await page.goto(url);
      await page.waitForLoadState('load');
      const found = (await page.evaluate(`({
        violations: window.violations,
        scripts: [...document.querySelectorAll('script')].map((s) => ({ inline: !s.src, text: s.textContent ?? '' })),
        styles: [...document.querySelectorAll('style')].map((s) => s.textContent ?? ''),
        inlineAttributes: [...document.querySelectorAll('*')].flatMap((el) =>
          [...el.attributes].filter((a) => a.name === 'style' || a.name.startsWith('on')).map((a) => el.tagName + ' ' + a.name)),
      })`)) as { violations: string[]; scripts: { inline: boolean; text: string }[]; styles: string[]; inlineAttributes: string[] };
      return { status: res!.status(), policy: (await res!.allHeaders())['content-security-policy'] ?? '', ...found, page };
    } catch (err) {
      await page.close();
      throw err;
    }
  }

  it('each GET route that produces HTML, the API’s and the portal’s: no violation, inline blocks allowed by hash, no unsafe-inline', async () => {
    const created = await callAs(stack, owner, 'POST', '/api/scan-sessions');
    assert.equal(created.status, 201);
    const pages = [
      ...operations(apiDoc)
        .filter((o) => o.method === 'get' && producesHtml(o.op))
        .map((o) => stack.url + concrete(o.template, o.op).replace(/\/scan\/[^/]+$/, `/scan/${created.body.id}`)),
      ...operations(portalDoc)
        .filter((o) => o.method === 'get' && producesHtml(o.op))
        .map((o) => stack.server.portalUrl + concrete(o.template, o.op)),
    ];
    for (const p of ['/verify', '/verify/{code}', '/help/verify-photo', '/scan/{id}', '/listing-renewal/{token}'])
      assert.ok(
        operations(apiDoc).some((o) => o.template === p && producesHtml(o.op)),
        `${p} is among the HTML routes`,
      );
    let htmlPages = 0;
    for (const url of pages) {
      const seen = await open(url);
      try {
        assert.ok(seen.policy, `${url}: a policy`);
        assert.ok(!seen.policy.includes('unsafe-inline') && !seen.policy.includes('unsafe-eval'), `${url}: ${seen.policy}`);
        assert.deepEqual(seen.violations, [], `${url}: nothing blocked`);
        assert.deepEqual(seen.inlineAttributes, [], `${url}: no style or event attribute`);
        for (const s of seen.scripts.filter((s) => s.inline))
          assert.ok(directive(seen.policy, 'script-src').includes(sha256(s.text)), `${url}: inline script allowed by its hash`);
        for (const s of seen.styles)
          assert.ok(directive(seen.policy, 'style-src').includes(sha256(s)), `${url}: inline style allowed by its hash`);
        if (seen.status === 200) htmlPages++;
      } finally {
        await seen.page.close();
      }
    }
    assert.ok(htmlPages >= 10, `${htmlPages} pages rendered`);
  });

  it('the scan page links the phone with its script under the policy', async () => {
    const created = await callAs(stack, owner, 'POST', '/api/scan-sessions');
    assert.equal(created.status, 201);
    const seen = await open(created.body.claim_url!.replace(/^https?:\/\/[^/]+/, stack.url));
    try {
      await seen.page.getByText('Linked. Photograph one card at a time.').waitFor();
      assert.equal(await seen.page.getByRole('button', { name: 'Done' }).isVisible(), true);
      assert.equal(seen.scripts.filter((s) => s.inline).length, 1);
      assert.deepEqual(await seen.page.evaluate('window.violations'), []);
      const session = await callAs(stack, owner, 'GET', `/api/scan-sessions/${created.body.id}`);
      assert.equal(session.body.state, 'claimed');
    } finally {
      await seen.page.close();
    }
  });
});
