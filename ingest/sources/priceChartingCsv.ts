// PriceCharting price-guide CSV (27 columns, prices like "$13.52", USD). For trading cards the
// columns are grades: loose = ungraded; cib, new, graded, box-only = the cross-company grades 7,
// 8, 9 and 9.5 (Holo's `other`); manual-only = PSA 10; bgs-10 = BGS 10; condition-17/18 are
// buckets whose meaning is not published, kept as `other` pc17/pc18 and never relabelled.
// Read as a stream (csv-parse's stream API): the guide's rows are handed over one by one.
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { collect, FeedFormatError, type ParseResult } from './types.js';

const COLUMNS: [string, { price_type: string; grading_company: string; grade: string }][] = [
  ['loose-price', { price_type: 'raw_us', grading_company: 'raw', grade: '' }],
  ['cib-price', { price_type: '', grading_company: 'other', grade: '7' }],
  ['new-price', { price_type: '', grading_company: 'other', grade: '8' }],
  ['graded-price', { price_type: '', grading_company: 'other', grade: '9' }],
  ['box-only-price', { price_type: '', grading_company: 'other', grade: '9.5' }],
  ['manual-only-price', { price_type: '', grading_company: 'psa', grade: '10' }],
  ['bgs-10-price', { price_type: '', grading_company: 'bgs', grade: '10' }],
  ['condition-17-price', { price_type: '', grading_company: 'other', grade: 'pc17' }],
  ['condition-18-price', { price_type: '', grading_company: 'other', grade: 'pc18' }],
];
/** The guide's product-name tags of print runs ("Charizard [1st Edition] #4"); a name without one is the common printing. */
export const PRICE_GUIDE_PRINT_RUNS: Record<string, string> = { '1st-edition': '[1st Edition]', shadowless: '[Shadowless]' };

const REQUIRED = ['id', 'product-name', ...COLUMNS.map(([c]) => c)];

/**
 * `game`, when given, names the catalogue game and `consolePrefix` the word PriceCharting puts
 * before the set name in console-name ("Pokemon Base Set"): rows then carry a name hint, so
 * products without a known price_guide_id can be linked by set name and number.
 */
export async function parsePriceChartingCsv(
  csv: AsyncIterable<Uint8Array | string> | string,
  asOf: string,
  link?: { game: string; consolePrefix: string },
): Promise<ParseResult> {
  const out: ParseResult = { rows: [], rejected: [] };
  const records = Readable.from(typeof csv === 'string' ? [csv] : csv).pipe(
    parse({
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      columns: (header: string[]) => {
        const missing = REQUIRED.filter((c) => !header.includes(c));
        if (missing.length) throw new FeedFormatError(`price guide CSV lacks columns: ${missing.join(', ')}`);
        return header;
      },
    }),
  );
  try {
    for await (const r of records as AsyncIterable<Record<string, string>>) guideRow(out, r, asOf, link);
  } catch (err) {
    if (err instanceof FeedFormatError) throw err;
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof FeedFormatError) throw cause;
    throw new FeedFormatError(`price guide CSV is unreadable: ${(err as Error).message}`);
  }
  return out;
}

function guideRow(out: ParseResult, r: Record<string, string>, asOf: string, link?: { game: string; consolePrefix: string }): void {
  const id = r['id']?.trim();
  if (!id || !/^\d+$/.test(id)) {
    out.rejected.push({ ref: JSON.stringify(id ?? null), reason: 'row without a numeric id' });
    return;
  }
  // "[1st Edition]", "[Shadowless]" or "[Reverse Holo]" in the product name names the printing.
  const name = r['product-name'] ?? '';
  const finish = /\[reverse holo\]/i.test(name) ? 'reverse-holofoil' : null;
  const printRun = Object.entries(PRICE_GUIDE_PRINT_RUNS).find(([, tag]) => name.toLowerCase().includes(tag.toLowerCase()))?.[0] ?? null;
  const ref = { kind: 'price_guide_id' as const, value: id };
  const number = /#\s*([^\s#]+)\s*$/.exec(name)?.[1];
  const console = r['console-name'] ?? '';
  const hint =
    link && number && console.startsWith(link.consolePrefix)
      ? { game: link.game, set: console.slice(link.consolePrefix.length).trim(), number }
      : undefined;
  for (const [column, kind] of COLUMNS)
    collect(out, id, r[column], {
      ref,
      finish,
      printRun,
      region: 'us',
      source: 'pricecharting',
      ...kind,
      currency: 'USD',
      as_of: asOf,
      ...(hint ? { hint } : {}),
    });
}
