// Cardmarket price guide export (price_guide_<game>.json): {version, createdAt, priceGuides:
// [{idProduct, avg, low, trend, avg1, avg7, avg30, and -foil twins}]}, EUR. Pokémon's guide
// names the twins -holo instead of -foil; both are read.
// Read as a stream: the guide's entries are handed over one by one, never the whole document.
import { oneChunk, readJsonStream } from './jsonStream.js';
import { collect, FeedFormatError, inDayRange, upstreamDayRange, type DayRange, type ParseResult } from './types.js';

const FIELDS = ['avg', 'low', 'trend', 'avg1', 'avg7', 'avg30'] as const;

/**
 * A guide's rows, dated by its createdAt, which must be on one of `days` (UPSTREAM_DAYS): every
 * row carries that one date, so a guide dated otherwise is a format error, as one without it.
 */
export async function parseCardmarketGuide(
  body: AsyncIterable<Uint8Array | string> | string,
  source = 'cardmarket',
  days: DayRange = upstreamDayRange(),
): Promise<ParseResult & { createdAt: string }> {
  let createdAt: string | null = null;
  const entries: ParseResult = { rows: [], rejected: [] };
  await readJsonStream(
    typeof body === 'string' ? oneChunk(body) : body,
    ['$.createdAt', '$.priceGuides.*'],
    ({ path, value }) => {
      if (path === '$.createdAt') createdAt = typeof value === 'string' ? value : null;
      else guideRows(entries, (value ?? {}) as Record<string, unknown>, source);
    },
    'price guide',
  );
  if (createdAt === null || !/^\d{4}-\d{2}-\d{2}/.test(createdAt)) throw new FeedFormatError('price guide lacks createdAt or priceGuides');
  // createdAt carries the exporter's offset (2026-07-14T02:44:49+0200): the guide is for that local day.
  const asOf = (createdAt as string).slice(0, 10);
  if (!inDayRange(asOf, days))
    throw new FeedFormatError(`price guide createdAt is not on a day from ${days.first} to ${days.last}: ${JSON.stringify(createdAt)}`);
  for (const row of entries.rows) row.as_of = asOf;
  return { ...entries, createdAt };
}

/** One guide entry's rows (dated once the guide's createdAt is known). */
function guideRows(out: ParseResult, g: Record<string, unknown>, source: string): void {
  const id = g.idProduct;
  if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) {
    out.rejected.push({ ref: JSON.stringify(id ?? null), reason: 'entry without a valid idProduct' });
    return;
  }
  const ref = { kind: 'eu_marketplace_product_id' as const, value: String(id) };
  for (const f of FIELDS) {
    const base = {
      ref,
      printRun: null,
      region: 'eu' as const,
      source,
      price_type: f,
      grading_company: 'raw',
      grade: '',
      currency: 'EUR',
      as_of: '',
    };
    collect(out, String(id), g[f], { ...base, finish: 'normal' });
    const twin = g[`${f}-foil`] ?? g[`${f}-holo`];
    // A foil trend of 0 means "no foil sales", not a free card.
    collect(out, String(id), twin === 0 ? null : twin, { ...base, finish: 'foil' });
  }
}
