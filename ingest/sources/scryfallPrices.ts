// Scryfall card objects (a JSON array, a list object, or one card): prices.usd / usd_foil /
// usd_etched (USD), eur / eur_foil (EUR) as decimal strings, tix (MTGO tickets, not money: skipped).
// The day is the caller's: the bulk file's updated_at, else the run's day. Read as a stream, so
// the ~500 MB default-cards bulk file is handed over card by card.
import { oneChunk, readJsonStream } from './jsonStream.js';
import { collect, type ParseResult } from './types.js';

const FIELDS: [string, 'us' | 'eu', string, string][] = [
  ['usd', 'us', 'USD', 'normal'],
  ['usd_foil', 'us', 'USD', 'foil'],
  ['usd_etched', 'us', 'USD', 'etched'],
  ['eur', 'eu', 'EUR', 'normal'],
  ['eur_foil', 'eu', 'EUR', 'foil'],
];

type Card = { id?: string; prices?: Record<string, unknown> };

export async function parseScryfallPrices(body: AsyncIterable<Uint8Array | string> | string, asOf: string): Promise<ParseResult> {
  const out: ParseResult = { rows: [], rejected: [] };
  // A top-level array's cards ($.*), a list object's (its data), or one card object's members.
  const single: Record<string, unknown> = {};
  let isList = false;
  await readJsonStream(
    typeof body === 'string' ? oneChunk(body) : body,
    ['$.*', '$.data.*'],
    ({ path, value }) => {
      if (path === '$.*' || path === '$.data.*') cardRows(out, value as Card, asOf);
      else if (path === '$.object' && value === 'list') isList = true;
      else if (path.startsWith('$.') && path.split('.').length === 2) single[path.slice(2)] = value;
    },
    'Scryfall response',
  );
  if (!isList && single.object !== undefined) cardRows(out, single as Card, asOf);
  return out;
}

function cardRows(out: ParseResult, c: Card, asOf: string): void {
  if (typeof c?.id !== 'string' || !/^[0-9a-f-]{36}$/.test(c.id)) {
    out.rejected.push({ ref: JSON.stringify(c?.id ?? null), reason: 'card without a Scryfall id' });
    return;
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
