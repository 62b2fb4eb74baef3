// Scryfall card objects (a JSON array, a list object, or one card): prices.usd / usd_foil /
// usd_etched (USD), eur / eur_foil (EUR) as decimal strings, tix (MTGO tickets, not money: skipped).
// Scryfall publishes one daily snapshot, so the day is the caller's as-of date.
import { collect, FeedFormatError, type ParseResult } from './types.js';

const FIELDS: [string, 'us' | 'eu', string, string][] = [
  ['usd', 'us', 'USD', 'normal'],
  ['usd_foil', 'us', 'USD', 'foil'],
  ['usd_etched', 'us', 'USD', 'etched'],
  ['eur', 'eu', 'EUR', 'normal'],
  ['eur_foil', 'eu', 'EUR', 'foil'],
];

type Card = { id?: string; prices?: Record<string, unknown> };

export function parseScryfallPrices(json: string, asOf: string): ParseResult {
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch (err) {
    throw new FeedFormatError(`Scryfall response is not JSON: ${(err as Error).message}`);
  }
  const cards: Card[] = Array.isArray(doc)
    ? doc
    : (doc as { object?: string; data?: Card[] }).object === 'list'
      ? ((doc as { data?: Card[] }).data ?? [])
      : [doc as Card];
  const out: ParseResult = { rows: [], rejected: [] };
  for (const c of cards) {
    if (typeof c?.id !== 'string' || !/^[0-9a-f-]{36}$/.test(c.id)) {
      out.rejected.push({ ref: JSON.stringify(c?.id ?? null), reason: 'card without a Scryfall id' });
      continue;
    }
    const ref = { kind: 'mtg_card_db_id' as const, value: c.id };
    for (const [field, region, currency, finish] of FIELDS)
      collect(out, c.id, c.prices?.[field], {
        ref,
        finish,
        printRun: null,
        region,
        source: 'scryfall',
        price_type: region === 'us' ? 'market' : 'trend',
        grading_company: 'raw',
        grade: '',
        currency,
        as_of: asOf,
      });
  }
  return out;
}
