// /docs: the main service's OpenAPI document rendered as one HTML page (no script), grouped by
// tag: every operation with its access tag, parameters, request fields and responses.
import { html, type Html } from './html.js';
import { layout, type View } from './pages.js';

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  description?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
};
type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: Schema };
type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  'x-access'?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses?: Record<string, { description?: string }>;
};
export type OpenApiDocument = {
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const ACCESS_TEXT: Record<string, string> = {
  free: 'free: no credentials needed',
  auth: 'auth: session cookie or API key',
  'starter+': 'starter+: Starter tier or higher, or a session',
  'pro+': "pro+: Pro tier or higher (a session at its account's tier)",
  'pro+|admin': "pro+|admin: Pro tier or higher (key, or session at its account's tier), an administrator, or the operator token",
  'business+': 'business+: a Business tier (Shop Basic or higher), by key or session',
  admin: 'admin: administrators and the operator token',
};

const anchor = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function resolve(doc: OpenApiDocument, s: Schema | undefined): Schema | undefined {
  if (!s?.$ref) return s;
  return doc.components?.schemas?.[s.$ref.replace('#/components/schemas/', '')];
}

function typeOf(doc: OpenApiDocument, raw: Schema | undefined): string {
  const s = resolve(doc, raw);
  if (!s) return '';
  if (s.enum) return s.enum.map(String).join(' | ');
  if (s.anyOf) return s.anyOf.map((a) => typeOf(doc, a)).join(' | ');
  const t = Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? 'object');
  if (t === 'array') return `array of ${typeOf(doc, s.items)}`;
  const bounds = s.minimum !== undefined || s.maximum !== undefined ? ` ${s.minimum ?? ''}..${s.maximum ?? ''}` : '';
  return `${t}${s.format ? ` (${s.format})` : ''}${bounds}`;
}

function fields(doc: OpenApiDocument, rows: { name: string; where: string; required: boolean; type: string; description: string }[]): Html {
  if (rows.length === 0) return html``;
  return html`<table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Required</th><th>Description</th></tr></thead><tbody>${rows.map(
    (r) =>
      html`<tr><td><code>${r.name}</code></td><td>${r.where}</td><td>${r.type}</td><td>${r.required ? 'yes' : 'no'}</td><td>${r.description}</td></tr>`,
  )}</tbody></table>`;
}

function operation(doc: OpenApiDocument, method: string, path: string, op: Operation): Html {
  const rows = (op.parameters ?? []).map((p) => ({
    name: p.name,
    where: p.in,
    required: !!p.required,
    type: typeOf(doc, p.schema),
    description: p.description ?? resolve(doc, p.schema)?.description ?? '',
  }));
  for (const [mediaType, content] of Object.entries(op.requestBody?.content ?? {})) {
    const body = resolve(doc, content.schema);
    for (const [name, prop] of Object.entries(body?.properties ?? {})) {
      rows.push({
        name,
        where: mediaType === 'application/json' ? 'body (JSON)' : 'body (form)',
        required: body?.required?.includes(name) ?? false,
        type: typeOf(doc, prop),
        description: resolve(doc, prop)?.description ?? '',
      });
    }
  }
  const access = op['x-access'] ?? 'free';
  return html`<div class="op" id="${anchor(`${method} ${path}`)}">
  <div class="sig"><span class="badge ${method}">${method}</span> <code>${path}</code>${op.deprecated ? html` <span class="badge deprecation">deprecated</span>` : ''}</div>
  <p>${op.summary ?? ''}${op.description ? html`<br><span class="muted">${op.description}</span>` : ''}</p>
  <p class="muted">Access: ${ACCESS_TEXT[access] ?? access} · Responses: ${Object.keys(op.responses ?? {}).join(', ')}</p>
  ${fields(doc, rows)}
</div>`;
}

export function docsPage(v: View, doc: OpenApiDocument): string {
  const byTag = new Map<string, { method: string; path: string; op: Operation }[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? 'other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push({ method, path, op });
    }
  }
  const tags = [...byTag.keys()].sort();
  const count = [...byTag.values()].reduce((n, ops) => n + ops.length, 0);
  return layout(
    v,
    'API reference',
    html`<h1>API reference</h1>
<p class="lead">${doc.info.title} ${doc.info.version}: ${count} operations, rendered from <a href="${v.apiUrl}/openapi.json">${v.apiUrl}/openapi.json</a>.
Errors are <code>{detail}</code>; validation errors are 422 <code>{detail: [{loc, msg, type}]}</code>. Send keys as
<code>Authorization: Bearer holo_…</code> or <code>X-API-Key</code>.</p>
<nav aria-label="Sections"><ul class="toc">${tags.map((t) => html`<li><a href="#${anchor(t)}">${t}</a> <span class="muted">(${byTag.get(t)!.length})</span></li>`)}</ul></nav>
${tags.map(
  (t) =>
    html`<section class="card" id="${anchor(t)}"><h2>${t}</h2>${byTag.get(t)!.map(({ method, path, op }) => operation(doc, method, path, op))}</section>`,
)}`,
  );
}
