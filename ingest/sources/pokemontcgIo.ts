// pokemontcg.io v2 card objects ({data: card} or {data: [cards]}): per-finish TCGplayer prices
// (USD: low, mid, high, market, directLow) and a Cardmarket block (EUR: trend, avg1/7/30, low and
// reverse-holo twins). Keyed by the pokemontcg.io card id, which is the catalogue's upstream id.
// When the pipeline stages rows and ClickHouse runs in this process (chDB), a page goes to a
// temporary file and is staged, with the feed's other pages, by ClickHouse's JSON functions
// (stage_pokemontcg_pages.sql, the same rule in SQL): no card or price becomes a JavaScript object (the streaming parser and the rows it
// built were most of a full scrape's CPU time; see README, bench:ingest).
import { pokemontcgPageCounts, readsLocalFiles, stagePokemontcgPages } from '../../sql/ingestStaging.js';
import { oneChunk, readJsonStream } from './jsonStream.js';
import { collect, FeedFormatError, inDayRange, upstreamDayRange, type DayRange, type ParseResult } from './types.js';
import { POKEMONTCG_CM_FIELDS as CM_FIELDS, POKEMONTCG_FINISHES, POKEMONTCG_TCG_FIELDS as TCG_FIELDS } from '../../schemas/pokemontcg.js';
import type { StageTarget } from '../upstreams/types.js';

type Card = {
  id?: string;
  tcgplayer?: { updatedAt?: string; prices?: Record<string, Record<string, unknown>> };
  cardmarket?: { updatedAt?: string; prices?: Record<string, unknown> };
};

const day = (s: string | undefined) => (s && /^\d{4}\/\d{2}\/\d{2}$/.test(s) ? s.replaceAll('/', '-') : null);

/** A block's day, or why its prices are refused: not YYYY/MM/DD, or not a calendar day of `days`. */
function blockDay(block: string, updatedAt: string | undefined, days: DayRange): { day: string } | { refused: string } {
  const asOf = day(updatedAt);
  if (!asOf) return { refused: `${block}.updatedAt is not YYYY/MM/DD: ${JSON.stringify(updatedAt)}` };
  if (!inDayRange(asOf, days))
    return { refused: `${block}.updatedAt is not a day from ${days.first} to ${days.last}: ${JSON.stringify(updatedAt)}` };
  return { day: asOf };
}

export type CardsPage = ParseResult & { count: number | null; totalCount: number | null };

/**
 * A /v2/cards page ({data: [cards], page, pageSize, count, totalCount}) or one card ({data: card}),
 * read as a stream, its blocks dated within `days` (UPSTREAM_DAYS). Given a stage with ClickHouse
 * in this process, the page is staged by ClickHouse (same rows and refusals) and only its count
 * and totalCount are returned.
 */
export async function parsePokemontcgIo(
  body: AsyncIterable<Uint8Array | string> | string,
  stage?: StageTarget,
  days: DayRange = upstreamDayRange(),
): Promise<CardsPage> {
  if (typeof body !== 'string' && stage && readsLocalFiles(stage.ch)) return stagePageInClickHouse(stage, body, days);
  const out: CardsPage = { rows: [], rejected: [], count: null, totalCount: null };
  const single: Record<string, unknown> = {};
  let sawData = false;
  await readJsonStream(
    typeof body === 'string' ? oneChunk(body) : body,
    ['$.data.*', '$.count', '$.totalCount'],
    ({ path, value }) => {
      if (path === '$.data.*') {
        sawData = true;
        cardRows(out, (value ?? {}) as Card, days);
      } else if (path === '$.count') out.count = typeof value === 'number' ? value : null;
      else if (path === '$.totalCount') out.totalCount = typeof value === 'number' ? value : null;
      else if (path.startsWith('$.data.')) single[path.slice('$.data.'.length)] = value;
    },
    'pokemontcg.io response',
  );
  if (Object.keys(single).length > 0) cardRows(out, single as Card, days);
  else if (!sawData && out.totalCount === null) throw new FeedFormatError('pokemontcg.io response has no data');
  return out;
}

function cardRows(out: ParseResult, c: Card, days: DayRange): void {
  // Real ids include cel25c-15_A1 and ex10-? (the unown cards): set id, dash, any visible number.
  if (typeof c.id !== 'string' || !/^[a-z0-9.]+-[^\s/]{1,16}$/.test(c.id)) {
    out.rejected.push({ ref: JSON.stringify(c.id ?? null), reason: 'card without a valid id' });
    return;
  }
  const ref = { kind: 'pokemontcg_id' as const, value: c.id };
  if (c.tcgplayer?.prices) {
    const dated = blockDay('tcgplayer', c.tcgplayer.updatedAt, days);
    if ('refused' in dated) out.rejected.push({ ref: c.id, reason: dated.refused });
    else
      for (const [key, prices] of Object.entries(c.tcgplayer.prices)) {
        const finish = POKEMONTCG_FINISHES[key];
        if (!finish) {
          out.rejected.push({ ref: c.id, reason: `unknown TCGplayer finish ${key}` });
          continue;
        }
        for (const [field, priceType] of TCG_FIELDS)
          collect(out, c.id, prices?.[field], {
            ref,
            ...finish,
            region: 'us',
            source: 'tcgplayer',
            price_type: priceType,
            grading_company: 'raw',
            grade: '',
            currency: 'USD',
            as_of: dated.day,
          });
      }
  }
  if (c.cardmarket?.prices) {
    const dated = blockDay('cardmarket', c.cardmarket.updatedAt, days);
    if ('refused' in dated) out.rejected.push({ ref: c.id, reason: dated.refused });
    else
      for (const [field, priceType, finish] of CM_FIELDS)
        collect(out, c.id, c.cardmarket.prices[field], {
          ref,
          finish,
          printRun: null,
          region: 'eu',
          source: 'cardmarket',
          price_type: priceType,
          grading_company: 'raw',
          grade: '',
          currency: 'EUR',
          as_of: dated.day,
        });
  }
}

/** The rule's constants as the staging statement's parameters (one source: schemas/pokemontcg.ts). */
const RULE = {
  finish_keys: Object.keys(POKEMONTCG_FINISHES),
  finishes: Object.values(POKEMONTCG_FINISHES).map((f) => f.finish),
  print_runs: Object.values(POKEMONTCG_FINISHES).map((f) => f.printRun ?? ''),
  tcg_fields: TCG_FIELDS.map(([field]) => field),
  tcg_types: TCG_FIELDS.map(([, type]) => type),
  cm_fields: CM_FIELDS.map(([field]) => field),
  cm_types: CM_FIELDS.map(([, type]) => type),
  cm_finishes: CM_FIELDS.map(([, , finish]) => finish ?? ''),
};

/**
 * A page left in the feed's spool and staged by ClickHouse's JSON functions with the pages around
 * it; its count and totalCount are read at once (the paging needs them), and a page that is not
 * one JSON document is a format error before anything is staged.
 */
async function stagePageInClickHouse(stage: StageTarget, body: AsyncIterable<Uint8Array | string>, days: DayRange): Promise<CardsPage> {
  const file = await stage.spool.write(stage.seqBase, body);
  const [page] = await pokemontcgPageCounts(stage.ch, { path: file }).catch((err: Error) => {
    throw new FeedFormatError(`pokemontcg.io response is not JSON (or is cut off): ${err.message.split('\n')[0]}`);
  });
  if (!page || page.documents === 0) throw new FeedFormatError('pokemontcg.io response is empty');
  if (page.documents !== 1 || !page.valid) throw new FeedFormatError('pokemontcg.io response is not JSON (or is cut off)');
  if (page.cards === 0 && page.total_count === null) throw new FeedFormatError('pokemontcg.io response has no data');
  if (page.cards > 0)
    await stage.spool.defer((glob) =>
      stagePokemontcgPages(stage.ch, { stage: stage.id, path: glob, ...RULE, first_day: days.first, last_day: days.last }),
    );
  return { rows: [], rejected: [], count: page.count, totalCount: page.total_count };
}
