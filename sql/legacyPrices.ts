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
  'legacyPrices/legacy_sales_counts',
  SalesCounts,
);

const SourceDay = z.object({ date: text, source: text, market_price: number });
/** Daily market price per source since `since` ('' source: all). */
export const priceHistory = chQuery<CardVariants & Graded & { since: string; source: string }, typeof SourceDay>(
  'legacyPrices/legacy_price_history',
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
  'legacyPrices/legacy_price_history_multi',
  VariantSeries,
);

const MainSource = z.object({ source: text });
/** The source that tracks the variants most closely (no row when none does). */
export const mainSource = chQuery<CardVariants & { since: string }, typeof MainSource>('legacyPrices/legacy_main_source', MainSource);

const Snapshot = z.object({ date: text, variant_id: number, currency: text, grading_company: text, grade: text, market_price: number });
/** Daily snapshots of one source's prices of the variants since `since`. */
export const priceSnapshots = chQuery<CardVariants & { since: string; source: string }, typeof Snapshot>(
  'legacyPrices/legacy_price_snapshots',
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
export const auctionSoldSummary = chQuery<CardVariants & Graded & { since: string }, typeof SoldSummary>(
  'legacyPrices/legacy_ebay_sold',
  SoldSummary,
);

const GuideTiers = z.object({ loose: z.number().nullable(), cib: z.number().nullable(), new: z.number().nullable() });
/** The graded guide's current loose, cib and new prices of the variants, USD (one row). */
export const guideTiers = pgQuery<[variantIds: number[]], typeof GuideTiers>('legacyPrices/guide_tiers', GuideTiers, { prepared: true });

const CardVariantRow = z.object({
  card_id: z.number().int(),
  name: z.string(),
  rarity: z.string().nullable(),
  game: z.string(),
  // Variant columns are NULL on the one row of a card without variants.
  variant_id: z.number().int().nullable(),
  finish: z.string().nullable(),
  print_run: z.string().nullable(),
  language: z.string().nullable(),
  reference_variant_id: z.number().int().nullable(),
});
/** A card with its variants in reference order (no row: no such card). */
export const cardVariants = pgQuery<[cardId: number], typeof CardVariantRow>('legacyPrices/card_variants', CardVariantRow, {
  prepared: true,
});

// Aggregates arrive as numbers or, for 64-bit counts, as text; an empty series gives NULLs.
const flexible = z.union([z.number(), z.string()]).nullable();
const SeriesStatsRow = z.object({
  points: flexible,
  last_day: flexible,
  current: flexible,
  p1: flexible,
  n1: flexible,
  p7: flexible,
  n7: flexible,
  p30: flexible,
  n30: flexible,
  p90: flexible,
  n90: flexible,
  p365: flexible,
  n365: flexible,
  ath_price: flexible,
  ath_date: flexible,
  mean_price: flexible,
  volatility: flexible,
  drift: flexible,
  slope_per_day: flexible,
  intercept: flexible,
  last_day_number: flexible,
});
export type SeriesStatsRow = z.infer<typeof SeriesStatsRow>;
/** Statistics of the variants' cross-source daily USD series since `since` (one row). */
export const priceAnalysis = chQuery<CardVariants & Graded & { since: string; source: string }, typeof SeriesStatsRow>(
  'legacyPrices/legacy_price_analysis',
  SeriesStatsRow,
);

const SourceMedianRow = z.object({ source: text, region: text, median: number, sample_size: number });
/** Each source's median USD price of the variants over its last `days` days of data. */
export const sourceMedianPrices = chQuery<CardVariants & Graded & { since: string; days: number }, typeof SourceMedianRow>(
  'legacyPrices/legacy_source_medians',
  SourceMedianRow,
);

const AuctionSaleRow = z.object({
  date: text,
  variant_id: number,
  grading_company: text,
  grade: text,
  observation_id: text,
  currency: text,
  price: number,
  price_usd: number,
});
/** Completed auction sales of the variants since `since`, newest first. */
export const auctionSalesOf = chQuery<CardVariants & Graded & { since: string; limit: number }, typeof AuctionSaleRow>(
  'legacyPrices/legacy_auction_sales',
  AuctionSaleRow,
);
