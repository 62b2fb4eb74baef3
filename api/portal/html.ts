// Server-rendered HTML without a template engine: a tagged template that escapes every
// interpolated value unless it is already Html, so markup can only come from our own literals.
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

function render(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  // Pages interpolate text and numbers; an object would render as [object Object], a bug to see.
  return escapeHtml(typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean | bigint));
}

/** Free text with its line breaks shown: each line escaped, joined by <br>. */
export const withLineBreaks = (text: string): Html =>
  new Html(
    text
      .split(/\r\n|\r|\n/)
      .map(escapeHtml)
      .join('<br>\n'),
  );

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new Html(out);
}
