// Legacy price queries of one card (spec: the legacy prices surface): one typed function per query
// file, over holo.card_market_daily_usd and the auction sales view. Formulas stay in the service.
import { z } from 'zod';
import { chQuery, col, pgQuery } from './typedQuery.js';

const { number, text } = col;

type CardVariants = { card_id: number; variant_ids: number[] };
type Graded = { grading_company: string; grade: string };

const SalesCounts = z.object({ sales_30d: number, sales_365d: number });
/** Auction sales of the variants in the last 30 and 365 days (one row). */
export const auctionSalesCounts = chQuery<CardVariants & Graded & { since30: string; since365: string }, typeof SalesCounts>(
  'legacy_sales_counts',
  SalesCounts,
);

const SourceDay = z.object({ date: text, source: text, market_price: number });
/** Daily market price per source since `since` ('' source: all). */
export const priceHistory = chQuery<CardVariants & Graded & { since: string; source: string }, typeof SourceDay>(
  'legacy_price_history',
  SourceDay,
);

const VariantSeries = z.object({
  variant_id: number,
  grading_company: text,
  grade: text,
  total_points: number,
  points: z.array(z.tuple([text, number])),
});
/** Every variant's series of the last year with at least `min_points` points. */
export const priceHistoryMulti = chQuery<CardVariants & { since: string; min_points: number }, typeof VariantSeries>(
  'legacy_price_history_multi',
  VariantSeries,
);

const MainSource = z.object({ source: text });
/** The source that tracks the variants most closely (no row when none does). */
export const mainSource = chQuery<CardVariants & { since: string }, typeof MainSource>('legacy_main_source', MainSource);

const Snapshot = z.object({ date: text, variant_id: number, currency: text, grading_company: text, grade: text, market_price: number });
/** Daily snapshots of one source's prices of the variants since `since`. */
export const priceSnapshots = chQuery<CardVariants & { since: string; source: string }, typeof Snapshot>(
  'legacy_price_snapshots',
  Snapshot,
);

const SoldSummary = z.object({
  kind: text,
  date: text,
  grading_company: text,
  grade: text,
  average_price: number,
  median_price: number,
  min_price: number,
  max_price: number,
  count: number,
});
/** Completed auction sales of the variants since `since`: per day and in total. */
export const auctionSoldSummary = chQuery<CardVariants & Graded & { since: string }, typeof SoldSummary>('legacy_ebay_sold', SoldSummary);

const GuideTiers = z.object({ loose: z.number().nullable(), cib: z.number().nullable(), new: z.number().nullable() });
/** The graded guide's current loose, cib and new prices of the variants, USD (one row). */
export const guideTiers = pgQuery<[variantIds: number[]], typeof GuideTiers>('guide_tiers', GuideTiers);
