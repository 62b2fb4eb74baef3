// Completed auction sales in the eBay Finding API shape (findCompletedItems, JSON): every value is
// wrapped in an array, prices are {"@currencyId", "__value__"}. Only listings that ended with a
// sale count. The grading company and grade come from the listing title ("PSA 10", "BGS 9.5");
// an ungraded sale is a last_sold price. The feed is fetched per card, so the caller names the
// product reference the sales belong to. Each sale is its own observation (its itemId).
import { FeedFormatError, money, type ParseResult, type SourceRow } from './types.js';

type Wrapped<T> = T[] | undefined;
type Item = {
  itemId?: Wrapped<string>;
  title?: Wrapped<string>;
  sellingStatus?: Wrapped<{ currentPrice?: Wrapped<{ '@currencyId'?: string; __value__?: string }>; sellingState?: Wrapped<string> }>;
  listingInfo?: Wrapped<{ endTime?: Wrapped<string> }>;
};

const GRADED = /\b(PSA|BGS|CGC|SGC|ACE)\s*(?:GEM\s*(?:MT|MINT)\s*)?(10|9\.5|9|8\.5|8|7\.5|7|6|5|4|3|2|1)\b/i;

export function gradeFromTitle(title: string): { grading_company: string; grade: string } {
  const m = GRADED.exec(title);
  return m ? { grading_company: m[1]!.toLowerCase(), grade: m[2]! } : { grading_company: 'raw', grade: '' };
}

export function parseAuctionSold(json: string, ref: SourceRow['ref']): ParseResult {
  let doc: { findCompletedItemsResponse?: { ack?: string[]; searchResult?: { item?: Item[] }[]; errorMessage?: unknown }[] };
  try {
    doc = JSON.parse(json);
  } catch (err) {
    throw new FeedFormatError(`completed-items response is not JSON: ${(err as Error).message}`);
  }
  const response = doc.findCompletedItemsResponse?.[0];
  if (!response || !['Success', 'Warning'].includes(response.ack?.[0] ?? '')) {
    throw new FeedFormatError(`completed-items request failed: ${JSON.stringify(response?.errorMessage ?? doc).slice(0, 200)}`);
  }
  const out: ParseResult = { rows: [], rejected: [] };
  for (const item of response.searchResult?.[0]?.item ?? []) {
    const id = item.itemId?.[0];
    const status = item.sellingStatus?.[0];
    if (!id || !/^\d+$/.test(id)) {
      out.rejected.push({ ref: JSON.stringify(id ?? null), reason: 'sale without an itemId' });
      continue;
    }
    if (status?.sellingState?.[0] !== 'EndedWithSales') continue; // unsold: not a price
    const price = status.currentPrice?.[0];
    const ended = item.listingInfo?.[0]?.endTime?.[0];
    if (!ended || Number.isNaN(Date.parse(ended))) {
      out.rejected.push({ ref: id, reason: `sale without a valid endTime: ${JSON.stringify(ended ?? null)}` });
      continue;
    }
    if (!price?.['@currencyId'] || !/^[A-Z]{3}$/.test(price['@currencyId'])) {
      out.rejected.push({ ref: id, reason: 'sale without a currency' });
      continue;
    }
    let amount: string | null;
    try {
      amount = money(price.__value__);
    } catch (err) {
      out.rejected.push({ ref: id, reason: (err as Error).message });
      continue;
    }
    if (amount === null || Number(amount) <= 0) {
      out.rejected.push({ ref: id, reason: 'sale without a price' });
      continue;
    }
    const graded = gradeFromTitle(item.title?.[0] ?? '');
    out.rows.push({
      ref,
      finish: null,
      printRun: null,
      region: 'us',
      source: 'auction_sold',
      price_type: graded.grading_company === 'raw' ? 'last_sold' : '',
      ...graded,
      currency: price['@currencyId'],
      amount,
      as_of: new Date(ended).toISOString().slice(0, 10),
      observation_id: id,
    });
  }
  return out;
}
