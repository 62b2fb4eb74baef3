// Scryfall card objects (a JSON array, a list object, or one card): prices.usd / usd_foil /
// usd_etched (USD), eur / eur_foil (EUR) as decimal strings, tix (MTGO tickets, not money: skipped).
// The day is the caller's: the bulk file's updated_at, else the run's day. Read as a stream, so
// the ~500 MB default-cards bulk file is never held whole. When the pipeline stages rows and
// ClickHouse runs in this process (chDB), an array (the bulk file) is streamed to a temporary file
// and staged by ClickHouse's JSONEachRow (stage_scryfall_bulk_file.sql, the same rule in SQL),
// which skips a card's other ~70 fields in C++: no card or price ever becomes a JavaScript object
// (the JavaScript streaming parser took ~18 s for 488 MB of cards; see README, bench:ingest).
import { readsLocalFiles, releaseEngineMemory, stageScryfallBulkFile } from '../../sql/ingestStaging.js';
import { withDocumentFile } from './documentFile.js';
import { oneChunk, readJsonStream } from './jsonStream.js';
import { collect, FeedFormatError, type ParseResult } from './types.js';
import type { StageTarget } from '../upstreams/types.js';

const FIELDS: [string, 'us' | 'eu', string, string][] = [
  ['usd', 'us', 'USD', 'normal'],
  ['usd_foil', 'us', 'USD', 'foil'],
  ['usd_etched', 'us', 'USD', 'etched'],
  ['eur', 'eu', 'EUR', 'normal'],
  ['eur_foil', 'eu', 'EUR', 'foil'],
];

type Card = { id?: string; prices?: Record<string, unknown> };

/**
 * The prices of the card objects in `body`. Given a stage with ClickHouse in this process, a
 * top-level array is staged by ClickHouse (same rows and refusals, except that an element that is
 * not an object fails the whole file as a format error) and no rows are returned; anything else is
 * read by the JavaScript parser.
 */
export async function parseScryfallPrices(
  body: AsyncIterable<Uint8Array | string> | string,
  asOf: string,
  stage?: StageTarget,
): Promise<ParseResult> {
  if (typeof body !== 'string' && stage && readsLocalFiles(stage.ch)) {
    const peeked = await peekFirstByte(body);
    if (peeked.first === '[') return stageCardArrayInClickHouse(stage, peeked.body, asOf);
    body = peeked.body;
  }
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

/** The first non-blank character of a byte stream, and the stream whole again (nothing consumed). */
async function peekFirstByte(
  body: AsyncIterable<Uint8Array | string>,
): Promise<{ first: string | null; body: AsyncIterable<Uint8Array | string> }> {
  const it = body[Symbol.asyncIterator]();
  const seen: (Uint8Array | string)[] = [];
  let first: string | null = null;
  while (first === null) {
    const next = await it.next();
    if (next.done) break;
    seen.push(next.value);
    const text = typeof next.value === 'string' ? next.value : Buffer.from(next.value).toString('latin1');
    const m = /\S/.exec(text);
    if (m) first = m[0];
  }
  async function* whole() {
    yield* seen;
    for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
  }
  return { first, body: whole() };
}

/** A JSON array of card objects staged through a temporary file and ClickHouse's JSONEachRow. */
async function stageCardArrayInClickHouse(
  stage: StageTarget,
  body: AsyncIterable<Uint8Array | string>,
  asOf: string,
): Promise<ParseResult> {
  return withDocumentFile(body, async (file) => {
    try {
      await stageScryfallBulkFile(stage.ch, { stage: stage.id, seq_base: stage.seqBase, path: file, as_of: asOf });
      await releaseEngineMemory(stage.ch);
    } catch (err) {
      throw new FeedFormatError(
        `Scryfall bulk file is not a JSON array of card objects (or is cut off): ${(err as Error).message.split('\n')[0]}`,
      );
    }
    return { rows: [], rejected: [] };
  });
}
