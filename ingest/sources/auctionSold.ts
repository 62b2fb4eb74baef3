// Sold items from eBay's Marketplace Insights API (GET /buy/marketplace_insights/v1_beta/
// item_sales/search): {total, next, itemSales: [{itemId "v1|<legacy id>|<variation>", title,
// lastSoldDate, lastSoldPrice {value, currency}, totalSoldQuantity}]}; every item is a sale (the
// Finding API's findCompletedItems, which listed unsold ones too, was decommissioned 2025-02-05).
// The grading company and grade come from the title ("PSA 10", "BGS 9.5"); an ungraded sale is a
// last_sold price. One search is one card's, so the caller names the product reference. Each
// sale is its own observation (its legacy item id).
import { readJsonStream, oneChunk } from './jsonStream.js';
import { z } from 'zod';
import { FeedFormatError, inDayRange, money, upstreamDayRange, type DayRange, type ParseResult, type SourceRow } from './types.js';

type Sale = { itemId?: unknown; title?: unknown; lastSoldDate?: unknown; lastSoldPrice?: { value?: unknown; currency?: unknown } };

const GRADED = /\b(PSA|BGS|CGC|SGC|ACE)\s*(?:GEM\s*(?:MT|MINT)\s*)?(10|9\.5|9|8\.5|8|7\.5|7|6|5|4|3|2|1)\b/i;

export function gradeFromTitle(title: string): { grading_company: string; grade: string } {
  const m = GRADED.exec(title);
  return m ? { grading_company: m[1]!.toLowerCase(), grade: m[2]! } : { grading_company: 'raw', grade: '' };
}

/** The legacy item id inside a RESTful item id ("v1|386512345001|0"), or a bare numeric one. */
const legacyId = (id: unknown) => (typeof id === 'string' ? (/^(?:v1\|)?(\d+)(?:\|\d+)?$/.exec(id)?.[1] ?? null) : null);

/** lastSoldDate: an ISO 8601 instant (eBay writes 2026-11-20T19:41:07.000Z), or a bare day. */
const SoldAt = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);

function saleRow(out: ParseResult, sale: Sale, ref: SourceRow['ref'], days: DayRange): void {
  const id = legacyId(sale.itemId);
  if (!id) {
    out.rejected.push({ ref: JSON.stringify(sale.itemId ?? null), reason: 'sale without an itemId' });
    return;
  }
  const sold = SoldAt.safeParse(sale.lastSoldDate);
  // The sale's day in UTC (a valid instant may still fall outside the days a price may have).
  const day = sold.success ? new Date(sold.data).toISOString().slice(0, 10) : '';
  if (!inDayRange(day, days)) {
    out.rejected.push({
      ref: id,
      reason: `sale without a valid lastSoldDate (an instant on a day from ${days.first} to ${days.last}): ${JSON.stringify(sale.lastSoldDate ?? null)}`,
    });
    return;
  }
  const currency = sale.lastSoldPrice?.currency;
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) {
    out.rejected.push({ ref: id, reason: 'sale without a currency' });
    return;
  }
  let amount: string | null;
  try {
    amount = money(sale.lastSoldPrice?.value);
  } catch (err) {
    out.rejected.push({ ref: id, reason: (err as Error).message });
    return;
  }
  if (amount === null || Number(amount) <= 0) {
    out.rejected.push({ ref: id, reason: 'sale without a price' });
    return;
  }
  const graded = gradeFromTitle(typeof sale.title === 'string' ? sale.title : '');
  out.rows.push({
    ref,
    finish: null,
    printRun: null,
    region: 'us',
    source: 'auction_sold',
    price_type: graded.grading_company === 'raw' ? 'last_sold' : '',
    ...graded,
    currency,
    amount,
    as_of: day,
    observation_id: id,
  });
}

export type ItemSalesPage = ParseResult & { total: number | null; next: string | null; sales: number };

/**
 * One page of an item_sales search, read as a stream; its total, next page link and sales on it
 * too. `belongs` (default: every sale) keeps out sales a keyword search also matched that are
 * another card's; `days`, the days a sale may be dated (UPSTREAM_DAYS).
 */
export async function parseItemSales(
  body: AsyncIterable<Uint8Array | string> | string,
  ref: SourceRow['ref'],
  belongs: (title: string) => boolean = () => true,
  days: DayRange = upstreamDayRange(),
): Promise<ItemSalesPage> {
  const out: ItemSalesPage = { rows: [], rejected: [], total: null, next: null, sales: 0 };
  let errors: unknown = null;
  await readJsonStream(
    typeof body === 'string' ? oneChunk(body) : body,
    ['$.itemSales.*', '$.total', '$.next', '$.errors'],
    ({ path, value }) => {
      if (path === '$.itemSales.*') {
        out.sales++;
        const sale = (value ?? {}) as Sale;
        if (belongs(typeof sale.title === 'string' ? sale.title : '')) saleRow(out, sale, ref, days);
      } else if (path === '$.total') out.total = typeof value === 'number' ? value : null;
      else if (path === '$.next') out.next = typeof value === 'string' ? value : null;
      else if (path === '$.errors') errors = value;
    },
    'item_sales search response',
  );
  if (errors && out.total === null) throw new FeedFormatError(`item_sales search failed: ${JSON.stringify(errors).slice(0, 200)}`);
  if (out.total === null) throw new FeedFormatError('item_sales search response has no total');
  return out;
}
