// TCGplayer catalog pricing response (GET /pricing/product/{productIds}): {success, errors,
// results: [{productId, lowPrice, midPrice, highPrice, marketPrice, directLowPrice, subTypeName}]},
// USD, one result per product and sub-type. The response carries no date: it is the day fetched.
import { collect, FeedFormatError, type ParseResult } from './types.js';

export const TCGPLAYER_SUBTYPES: Record<string, { finish: string; printRun: string | null }> = {
  Normal: { finish: 'normal', printRun: null },
  Foil: { finish: 'foil', printRun: null },
  Holofoil: { finish: 'holofoil', printRun: null },
  'Reverse Holofoil': { finish: 'reverse-holofoil', printRun: null },
  '1st Edition Holofoil': { finish: 'holofoil', printRun: '1st-edition' },
  '1st Edition Normal': { finish: 'normal', printRun: '1st-edition' },
  'Unlimited Holofoil': { finish: 'holofoil', printRun: 'unlimited' },
  '1st Edition': { finish: 'normal', printRun: '1st-edition' },
  Unlimited: { finish: 'normal', printRun: 'unlimited' },
  'Rainbow Foil': { finish: 'rainbow-foil', printRun: null },
  'Cold Foil': { finish: 'cold-foil', printRun: null },
  'Gold Cold Foil': { finish: 'gold-cold-foil', printRun: null },
};
const FIELDS: [string, string][] = [
  ['lowPrice', 'low'],
  ['midPrice', 'mid'],
  ['highPrice', 'high'],
  ['marketPrice', 'market'],
  ['directLowPrice', 'direct_low'],
];

export function parseTcgplayerPricing(json: string, asOf: string): ParseResult {
  let doc: { success?: boolean; errors?: unknown[]; results?: Record<string, unknown>[] };
  try {
    doc = JSON.parse(json);
  } catch (err) {
    throw new FeedFormatError(`TCGplayer pricing is not JSON: ${(err as Error).message}`);
  }
  if (doc.success !== true || !Array.isArray(doc.results))
    throw new FeedFormatError(`TCGplayer pricing failed: ${JSON.stringify(doc.errors ?? doc).slice(0, 200)}`);
  const out: ParseResult = { rows: [], rejected: [] };
  for (const r of doc.results) {
    const id = r.productId;
    if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) {
      out.rejected.push({ ref: JSON.stringify(id ?? null), reason: 'result without a valid productId' });
      continue;
    }
    const sub = TCGPLAYER_SUBTYPES[String(r.subTypeName)];
    if (!sub) {
      out.rejected.push({ ref: String(id), reason: `unknown subTypeName ${JSON.stringify(r.subTypeName)}` });
      continue;
    }
    const ref = { kind: 'us_marketplace_product_id' as const, value: String(id) };
    for (const [field, priceType] of FIELDS)
      collect(out, String(id), r[field], {
        ref,
        ...sub,
        region: 'us',
        source: 'tcgplayer',
        price_type: priceType,
        grading_company: 'raw',
        grade: '',
        currency: 'USD',
        as_of: asOf,
      });
  }
  return out;
}
