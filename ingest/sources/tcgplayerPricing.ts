// TCGplayer catalog pricing response (GET /pricing/product/{productIds}): {success, errors,
// results: [{productId, lowPrice, midPrice, highPrice, marketPrice, directLowPrice, subTypeName}]},
// USD, one result per product and sub-type. The response carries no date: it is the day fetched.
import { oneChunk, readJsonStream } from './jsonStream.js';
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

export async function parseTcgplayerPricing(body: AsyncIterable<Uint8Array | string> | string, asOf: string): Promise<ParseResult> {
  const out: ParseResult = { rows: [], rejected: [] };
  let success: unknown = null;
  let errors: unknown = null;
  await readJsonStream(
    typeof body === 'string' ? oneChunk(body) : body,
    ['$.success', '$.errors', '$.results.*'],
    ({ path, value }) => {
      if (path === '$.success') success = value;
      else if (path === '$.errors') errors = value;
      else resultRows(out, (value ?? {}) as Record<string, unknown>, asOf);
    },
    'TCGplayer pricing',
  );
  if (success !== true) throw new FeedFormatError(`TCGplayer pricing failed: ${JSON.stringify(errors ?? null).slice(0, 200)}`);
  return out;
}

function resultRows(out: ParseResult, r: Record<string, unknown>, asOf: string): void {
  const id = r.productId;
  if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) {
    out.rejected.push({ ref: JSON.stringify(id ?? null), reason: 'result without a valid productId' });
    return;
  }
  const sub = TCGPLAYER_SUBTYPES[String(r.subTypeName)];
  if (!sub) {
    out.rejected.push({ ref: String(id), reason: `unknown subTypeName ${JSON.stringify(r.subTypeName)}` });
    return;
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
