// The portal's pages: plain server-rendered HTML (no script), one function per page, all inside
// one layout. Every form posts csrf_token; secrets appear only on the page that creates them.
import type { ApiKeyRecord, User } from '../auth/accounts.js';
import { OFFERED_TIERS, TIERS, type Tier } from '../../schemas/tiers.js';
import type { Deprecation } from '../http/deprecations.js';
import type { ChangelogEntry } from './changelog.js';
import type { WebhookDelivery, WebhookEndpoint } from '../events/webhooks.js';
import { html, type Html } from './html.js';

/** What every page knows about the request. */
export type View = { user: User | null; csrf: string; path: string; apiUrl: string };

const NAV = [
  { href: '/docs', label: 'Docs' },
  { href: '/pricing', label: 'Pricing' },
  { href: '/changelog', label: 'Changelog' },
  { href: '/dashboard', label: 'Dashboard' },
];

const csrfField = (v: View) => html`<input type="hidden" name="csrf_token" value="${v.csrf}">`;

export function layout(v: View, title: string, body: Html): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Holo Developers</title>
<link rel="stylesheet" href="/static/portal.css">
</head>
<body>
<header class="top"><div class="bar">
  <a class="logo" href="/">holo<span>/</span>developers</a>
  <nav aria-label="Portal">${NAV.map((n) => html`<a href="${n.href}"${v.path === n.href ? html` aria-current="page"` : ''}>${n.label}</a>`)}</nav>
  <div class="who">${
    v.user
      ? html`<span>Signed in as <strong>${v.user.username}</strong></span>
    <form method="post" action="/logout"><button class="link" type="submit">Sign out</button></form>`
      : html`<a href="/#sign-in">Sign in</a>`
  }</div>
</div></header>
<main>
${body}
</main>
<footer>Holo API · <a href="${v.apiUrl}/openapi.json">OpenAPI document</a> · <a href="/openapi.json">Portal OpenAPI</a></footer>
</body>
</html>
`.value;
}

function signInForms(v: View): Html {
  return html`<div class="grid" id="sign-in">
  <section class="card">
    <h2>Sign in</h2>
    <form class="stack" method="post" action="/login">
      ${csrfField(v)}
      <label>Username or e-mail <input type="text" name="username" autocomplete="username" required maxlength="254"></label>
      <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
      <button type="submit">Sign in</button>
    </form>
  </section>
  <section class="card">
    <h2>Create an account</h2>
    <form class="stack" method="post" action="/register">
      ${csrfField(v)}
      <label>Username <input type="text" name="username" autocomplete="username" required minlength="3" maxlength="30"></label>
      <label>E-mail <input type="email" name="email" autocomplete="email" required></label>
      <label>Password <input type="password" name="password" autocomplete="new-password" required minlength="8"></label>
      <button type="submit">Create account</button>
    </form>
  </section>
</div>`;
}

export function homePage(v: View): string {
  return layout(
    v,
    'Trading-card market data API',
    html`<h1>Trading-card market data, as an API</h1>
<p class="lead">Prices, history, movers and predictions for every card Holo tracks, from European and US marketplaces,
graded price guides and auction sales. Read-only data needs no key; a key lifts the anonymous limits and opens the
account, collection and streaming endpoints.</p>
<ol class="steps">
  <li><strong>Create an account</strong><br><span class="muted">Or sign in with your Holo account.</span></li>
  <li><strong>Enable API access</strong><br><span class="muted">Accept the API terms once.</span></li>
  <li><strong>Create a key</strong><br><span class="muted">Shown once; send it as a bearer token.</span></li>
</ol>
<h2>Try it</h2>
<pre>curl ${v.apiUrl}/api/v2/cards/1
curl -H "Authorization: Bearer holo_…" ${v.apiUrl}/api/keys/</pre>
${
  v.user
    ? html`<p class="notice ok">You are signed in. <a href="${v.user.developer_enabled_at ? '/dashboard' : '/enable'}">${v.user.developer_enabled_at ? 'Go to your dashboard' : 'Enable API access'}</a></p>`
    : signInForms(v)
}`,
  );
}

export function signInPage(v: View, title: string, why: string): string {
  return layout(v, title, html`<h1>${title}</h1><p class="notice warn">${why}</p>${signInForms(v)}`);
}

export function enablePage(v: View & { user: User }, justEnabled: boolean): string {
  const tier = TIERS[v.user.tier];
  if (v.user.developer_enabled_at) {
    return layout(
      v,
      'API access',
      html`<h1>API access is enabled</h1>
${justEnabled ? html`<p class="notice ok">Done: API access is enabled for <strong>${v.user.username}</strong>.</p>` : html`<p class="muted">Enabled since ${v.user.developer_enabled_at.slice(0, 10)}.</p>`}
<section class="card">
  <h2>Create your first key</h2>
  ${createKeyForm(v)}
</section>
<p><a href="/dashboard">Go to the dashboard</a></p>`,
    );
  }
  return layout(
    v,
    'Enable API access',
    html`<h1>Enable API access</h1>
<section class="card">
  <p>By enabling access for <strong>${v.user.username}</strong> you agree to the API terms:</p>
  <ul>
    <li>Your <strong>${tier.label}</strong> tier allows ${tier.perMinute.toLocaleString('en')} requests a minute${tier.perDay === null ? '' : ` and ${tier.perDay.toLocaleString('en')} a day`} per key, and ${tier.keys} key${tier.keys === 1 ? '' : 's'}.</li>
    <li>Keys are secrets: keep them on servers, never in web pages or apps. Holo stores only a digest and shows each key once.</li>
    <li>Past a limit, requests get 429 with Retry-After; the daily count resets at midnight UTC.</li>
  </ul>
  <form method="post" action="/enable">${csrfField(v)}<button type="submit">Enable API access</button></form>
</section>`,
  );
}

function createKeyForm(v: View): Html {
  return html`<form class="inline" method="post" action="/keys/create">
    ${csrfField(v)}
    <label>Key name <input type="text" name="key_name" value="My Key" maxlength="100" required></label>
    <button type="submit">Create key</button>
  </form>`;
}

export type DashboardWebhook = WebhookEndpoint & { deliveries: WebhookDelivery[] };

export type DashboardData = {
  keys: ApiKeyRecord[];
  /** Null when the tier has no webhooks. */
  webhooks?: DashboardWebhook[] | null;
  createdWebhook?: { url: string; secret: string };
  created?: ApiKeyRecord & { key: string };
  revoked?: ApiKeyRecord | { name: string };
  deprecations: Deprecation[];
};

export function dashboardPage(v: View & { user: User }, d: DashboardData): string {
  const tier = TIERS[v.user.tier];
  const atCap = d.keys.length >= tier.keys;
  return layout(
    v,
    'Dashboard',
    html`<h1>Dashboard</h1>
${d.deprecations.map(
  (dep) =>
    html`<p class="notice warn" role="status"><strong>Deprecated:</strong> <code>${dep.method.toUpperCase()} ${dep.path}</code> stops working on ${dep.sunset}; use <code>${dep.successor}</code>. See the <a href="/changelog">change log</a>.</p>`,
)}
${
  d.created
    ? html`<section class="notice ok secret" aria-live="polite">
  <strong>Your new key “${d.created.name}”</strong>
  <label>Copy it now: this is the only time it is shown.
    <input type="text" readonly value="${d.created.key}" id="new-key" aria-describedby="new-key-help"></label>
  <span id="new-key-help">Send it as <code>Authorization: Bearer &lt;key&gt;</code> or <code>X-API-Key</code>. Holo keeps only a digest and cannot show it again.</span>
</section>`
    : ''
}
${d.revoked ? html`<p class="notice ok" role="status">Key “${d.revoked.name}” is revoked: requests with it now get 401.</p>` : ''}
${v.user.developer_enabled_at ? '' : html`<p class="notice warn">API access is not enabled yet. <a href="/enable">Enable it</a> to create keys.</p>`}
<div class="grid">
  <section class="card"><h3>Account</h3><p><strong>${v.user.username}</strong><br><span class="muted">${v.user.email}</span></p></section>
  <section class="card"><h3>Tier</h3><p><strong>${tier.label}</strong><br><span class="muted">${tier.perMinute.toLocaleString('en')}/minute · ${tier.perDay === null ? 'no daily cap' : `${tier.perDay.toLocaleString('en')}/day`} per key</span></p><p><a href="/pricing">Compare tiers</a></p></section>
  <section class="card"><h3>Keys</h3><p><strong>${d.keys.length} of ${tier.keys}</strong><br><span class="muted">active keys on this tier</span></p></section>
</div>
<h2>API keys</h2>
${
  d.keys.length === 0
    ? html`<p class="muted">No keys yet.</p>`
    : html`<div class="table-wrap"><table>
  <thead><tr><th>Name</th><th>Key</th><th>Tier</th><th class="num">Calls today</th><th>Last used</th><th>Created</th><th>Expires</th><th><span class="muted">Action</span></th></tr></thead>
  <tbody>${d.keys.map(
    (k) => html`<tr>
    <td>${k.name}</td><td class="mono">${k.prefix}…</td><td>${TIERS[k.tier].label}</td>
    <td class="num">${k.calls_today.toLocaleString('en')}${k.daily_limit === null ? '' : html` <span class="muted">/ ${k.daily_limit.toLocaleString('en')}</span>`}</td>
    <td>${k.last_used_at?.replace('T', ' ').replace('Z', ' UTC') ?? html`<span class="muted">never</span>`}</td>
    <td>${k.created_at.slice(0, 10)}</td><td>${k.expires_at?.slice(0, 10) ?? html`<span class="muted">never</span>`}</td>
    <td><form class="inline" method="post" action="/keys/${k.id}/revoke">${csrfField(v)}<button class="danger" type="submit" aria-label="Revoke ${k.name}">Revoke</button></form></td>
  </tr>`,
  )}</tbody>
</table></div>`
}
${webhookSection(v, d)}
${
  v.user.developer_enabled_at
    ? atCap
      ? html`<p class="muted">The ${tier.label} tier allows ${tier.keys} key${tier.keys === 1 ? '' : 's'}: revoke one to create another.</p>`
      : html`<h3>New key</h3>${createKeyForm(v)}`
    : ''
}`,
  );
}

function webhookSection(v: View, d: DashboardData): Html {
  if (!d.webhooks)
    return html`<h2>Webhooks</h2><p class="muted">Webhooks come with the Business tiers (Shop Basic and higher): see <a href="/pricing">pricing</a>.</p>`;
  return html`<h2>Webhooks</h2>
${
  d.createdWebhook
    ? html`<section class="notice ok secret"><strong>Signing secret for ${d.createdWebhook.url}</strong>
  <label>Copy it now: this is the only time it is shown. <input type="text" readonly value="${d.createdWebhook.secret}" id="new-webhook-secret"></label>
  <span>Verify <code>X-Holo-Signature</code> (hex HMAC-SHA256 of the raw body) with it.</span></section>`
    : ''
}
${d.webhooks.map(
  (w) => html`<section class="card">
  <h3>${w.url}</h3>
  <p class="muted">${w.events.join(', ')}${w.card_ids.length ? ` · ${w.card_ids.length} cards` : ''} · secret ${w.secret_prefix}… ·
    ${w.is_active ? 'active' : html`<strong>disabled</strong>: ${w.disabled_reason ?? ''}`}</p>
  ${
    w.deliveries.length
      ? html`<div class="table-wrap"><table><thead><tr><th>Event</th><th>Status</th><th class="num">Attempts</th><th>Last answer</th><th>Created</th></tr></thead><tbody>${w.deliveries.map(
          (x) =>
            html`<tr><td>${x.event_type}</td><td>${x.status}</td><td class="num">${x.attempts}</td><td>${x.last_error ?? (x.last_status_code === null ? '—' : `HTTP ${x.last_status_code}`)}</td><td>${x.created_at.replace('T', ' ').slice(0, 19)}</td></tr>`,
        )}</tbody></table></div>`
      : html`<p class="muted">No deliveries yet.</p>`
  }
  <form class="inline" method="post" action="/webhooks/${w.id}/delete">${csrfField(v)}<button class="danger" type="submit" aria-label="Delete webhook ${w.url}">Delete</button></form>
</section>`,
)}
<form class="inline" method="post" action="/webhooks/create">
  ${csrfField(v)}
  <label>Endpoint URL <input type="text" name="url" placeholder="https://example.com/holo-webhook" required maxlength="2048"></label>
  <button type="submit">Add webhook</button>
</form>`;
}

export function pricingPage(v: View): string {
  const row = (t: Tier) => {
    const tier = TIERS[t];
    const current = v.user?.tier === t;
    return html`<tr class="${current ? 'current' : ''}">
  <td><strong>${tier.label}</strong>${current ? html` <span class="badge">your tier</span>` : ''}</td>
  <td>${tier.segment === 'business' ? 'Business' : 'Collectors'}</td>
  <td class="num">${tier.eurPerMonth === 0 ? 'free' : `€${tier.eurPerMonth}`}</td>
  <td class="num">${tier.perMinute.toLocaleString('en')}</td>
  <td class="num">${tier.perDay === null ? 'unlimited' : tier.perDay.toLocaleString('en')}</td>
  <td class="num">${tier.keys}</td>
  <td class="num">${tier.recognitionPerDay === null ? (t === 'free' ? '—' : 'unlimited') : tier.recognitionPerDay.toLocaleString('en')}</td>
</tr>`;
  };
  return layout(
    v,
    'Pricing',
    html`<h1>Pricing</h1>
<p class="lead">Every tier includes the whole read-only data API. Limits apply per API key; the daily count resets at midnight UTC.
Anonymous callers get 30 requests a minute per address; the website's own sessions are not limited.</p>
<div class="table-wrap"><table>
<thead><tr><th>Tier</th><th>For</th><th class="num">Per month</th><th class="num">Requests / minute</th><th class="num">Requests / day</th><th class="num">API keys</th><th class="num">Recognitions / day</th></tr></thead>
<tbody>${OFFERED_TIERS.map(row)}</tbody>
</table></div>
<p class="muted">The legacy ${TIERS.business.label} tier (€${TIERS.business.eurPerMonth}/month, ${TIERS.business.perMinute.toLocaleString('en')}/minute, ${TIERS.business.perDay.toLocaleString('en')}/day) keeps working for accounts already on it and is not offered to new sign-ups.
Starter and higher unlock the WebSocket price stream; Business tiers and higher, webhooks.</p>`,
  );
}

export function changelogPage(v: View, entries: ChangelogEntry[]): string {
  return layout(
    v,
    'Change log',
    html`<h1>API change log</h1>
<p class="lead">Newest first. Breaking changes are announced at least 90 days ahead and ship under a new major path; deprecated endpoints answer with <code>Deprecation: true</code> and <code>Sunset</code> until they go.</p>
<ol class="changelog" reversed>${entries.map(
      (e) => html`<li><time datetime="${e.date}">${e.date}</time> <span class="badge ${e.type}">${e.type}</span> <strong>${e.title}</strong>
  ${e.details.length ? html`<ul>${e.details.map((d) => html`<li>${d}</li>`)}</ul>` : ''}</li>`,
    )}</ol>`,
  );
}

/** The body of a 303 after a form sign-in, for clients that do not follow redirects. */
export function continuePage(v: View, to: string): string {
  return layout(v, 'Signed in', html`<h1>Signed in</h1><p><a href="${to}">Continue</a></p>`);
}

export function errorPage(v: View, status: number, problems: string[], back: string): string {
  const title =
    status === 401
      ? 'Sign in first'
      : status === 403
        ? 'Not allowed'
        : status === 404
          ? 'Not found'
          : status === 422
            ? 'Please check the form'
            : status === 429
              ? 'Slow down'
              : 'Something went wrong';
  return layout(
    v,
    title,
    html`<h1>${title}</h1>
<div class="notice bad" role="alert">${problems.length === 1 ? problems[0] : html`<ul>${problems.map((p) => html`<li>${p}</li>`)}</ul>`}</div>
<p><a href="${back}">Go back</a></p>`,
  );
}
