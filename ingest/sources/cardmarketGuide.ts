// Cardmarket price guide export (price_guide_<game>.json): {version, createdAt, priceGuides:
// [{idProduct, avg, low, trend, avg1, avg7, avg30, and -foil twins}]}, EUR. Pokémon's guide
// names the twins -holo instead of -foil; both are read.
import { collect, FeedFormatError, type ParseResult } from './types.js';

const FIELDS = ['avg', 'low', 'trend', 'avg1', 'avg7', 'avg30'] as const;

export function parseCardmarketGuide(json: string, source = 'cardmarket'): ParseResult & { createdAt: string } {
  let doc: { createdAt?: string; priceGuides?: Record<string, unknown>[] };
  try {
    doc = JSON.parse(json);
  } catch (err) {
    throw new FeedFormatError(`price guide is not JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(doc.priceGuides) || typeof doc.createdAt !== 'string')
    throw new FeedFormatError('price guide lacks createdAt or priceGuides');
  // createdAt carries the exporter's offset (2026-07-14T02:44:49+0200): the guide is for that local day.
  const asOf = doc.createdAt.slice(0, 10);
  const out: ParseResult = { rows: [], rejected: [] };
  for (const g of doc.priceGuides) {
    const id = g.idProduct;
    if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) {
      out.rejected.push({ ref: JSON.stringify(id ?? null), reason: 'entry without a valid idProduct' });
      continue;
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
        as_of: asOf,
      };
      collect(out, String(id), g[f], { ...base, finish: 'normal' });
      const twin = g[`${f}-foil`] ?? g[`${f}-holo`];
      // A foil trend of 0 means "no foil sales", not a free card.
      collect(out, String(id), twin === 0 ? null : twin, { ...base, finish: 'foil' });
    }
  }
  return { ...out, createdAt: doc.createdAt };
}
