// Per-card analytics precomputed when prices land (issue 35): the batch ClickHouse queries that
// answer the per-card legacy queries for many cards at once, and the PostgreSQL table their answers
// are kept in. An answer is filed under its query's name and its parameters exactly as the service
// passes them (answerKey), so a request finds it only when it would have asked ClickHouse the very
// same question; a daily series is filed once a variant over its longest window, as runs
// (SeriesRun), which a request cuts to its own; anything else goes to ClickHouse as before.
import { z } from 'zod';
import { chQuery, chStatement, chTabSeparated, col, pgCopyIn, pgQuery, pgStatement } from './typedQuery.js';
import { auctionSalesCounts, mainSource, priceAnalysis, priceHistory, priceSnapshots, sourceMedianPrices } from './legacyPrices.js';
import { marketIndex, marketMovers } from './market.js';
import { cardSeriesEur } from './priceLists.js';
import { globalHistory, regionHistory } from './v2History.js';

const { number, text } = col;

/** The per-card ClickHouse queries whose answers are precomputed: the statistics, filed per question. */
export const PRECOMPUTED_QUERIES = ['legacy_price_analysis', 'legacy_source_medians', 'legacy_sales_counts'] as const;
export type PrecomputedQuery = (typeof PRECOMPUTED_QUERIES)[number];
/**
 * The per-card daily series, precomputed too: filed per variant as runs (SeriesRun) over the last
 * SERIES_DAYS days, which a request cuts to its window (api/legacy/precomputedAnalytics.ts).
 * legacy_main_source is answered from legacy_price_snapshots' runs (the rows it counts).
 */
export const SERIES_QUERIES = [
  'legacy_price_history',
  'legacy_main_source',
  'legacy_price_snapshots',
  'pi_card_series',
  'history_points',
  'history_points_global',
] as const;
export type SeriesQuery = (typeof SERIES_QUERIES)[number];
export type CardQuery = PrecomputedQuery | SeriesQuery;
/** The query whose filed runs answer a series query. */
export const SERIES_FILED_AS: Record<SeriesQuery, Exclude<SeriesQuery, 'legacy_main_source'>> = {
  legacy_price_history: 'legacy_price_history',
  legacy_main_source: 'legacy_price_snapshots',
  legacy_price_snapshots: 'legacy_price_snapshots',
  pi_card_series: 'pi_card_series',
  history_points: 'history_points',
  history_points_global: 'history_points_global',
};
/**
 * Days of each daily series filed (today included): the longest window its routes declare
 * (price-history and snapshots' days, price-intelligence's periods: 365; v2 history's days: 3650).
 * A window starting earlier, or ending before today beyond it, is asked of ClickHouse.
 */
export const SERIES_DAYS: Record<Exclude<SeriesQuery, 'legacy_main_source'>, number> = {
  legacy_price_history: 365,
  legacy_price_snapshots: 365,
  pi_card_series: 365,
  history_points: 3650,
  history_points_global: 3650,
};
/**
 * One series of a variant as ClickHouse files it (card_analytics_daily_series.sql and the others):
 * its key columns (a source, a grading, a region…), its first day, each day's distance from the
 * day before (the first 0), and each day's value.
 */
export type SeriesRun = [...keys: string[], firstDay: string, steps: number[], values: unknown[]];
/** Each series query's key columns in a run, in order, and the name of its value column. */
export const SERIES_RUN: Record<Exclude<SeriesQuery, 'legacy_main_source'>, { keys: string[]; value: string }> = {
  legacy_price_history: { keys: ['source'], value: 'market_price' },
  legacy_price_snapshots: { keys: ['source', 'grading_company', 'grade', 'region', 'currency'], value: 'market_price' },
  pi_card_series: { keys: ['source'], value: 'market_price_eur' },
  history_points: { keys: ['region', 'source', 'price_type'], value: 'amount' },
  history_points_global: { keys: ['source', 'price_type', 'region'], value: 'amount' },
};
/** The market-wide queries precomputed once a generation, filed under card 0 (no card has id 0). */
export const MARKET_QUERIES = ['market_movers', 'market_index'] as const;
export type MarketQuery = (typeof MARKET_QUERIES)[number];
export const MARKET_CARD = 0;
/**
 * The typed query each precomputed answer stands in for, named as its file is: a request's
 * question is recognised by the query's text (typed-queries checks each name against its file).
 */
export const ANSWERED_QUERY: Record<CardQuery | MarketQuery, { file: string; text: string }> = {
  legacy_price_analysis: priceAnalysis,
  legacy_source_medians: sourceMedianPrices,
  legacy_sales_counts: auctionSalesCounts,
  legacy_price_history: priceHistory,
  legacy_main_source: mainSource,
  legacy_price_snapshots: priceSnapshots,
  pi_card_series: cardSeriesEur,
  history_points: regionHistory,
  history_points_global: globalHistory,
  market_movers: marketMovers,
  market_index: marketIndex,
};
/** The movers' periods (days) and largest limit: a smaller limit's lists are the first of these. */
export const MOVERS_DAYS = [7, 30, 90] as const;
export const MOVERS_MAX_LIMIT = 50;

/**
 * Where a card's answers list the variants the precompute read rows of: under this key of the
 * answers of `in`. A question about one variant not listed, over a window starting no earlier
 * than `days` days before the precompute's day (the rows it read: the batch's daily rows since
 * PRECOMPUTED_WINDOWS' longest, the sales since its since365), has no rows.
 */
export const COVERED_VARIANTS = 'variants';
export const COVERAGE: Record<PrecomputedQuery, { in: PrecomputedQuery; param: string; days: number }> = {
  legacy_price_analysis: { in: 'legacy_price_analysis', param: 'since', days: 3650 },
  legacy_source_medians: { in: 'legacy_price_analysis', param: 'since', days: 3650 },
  legacy_sales_counts: { in: 'legacy_sales_counts', param: 'since365', days: 364 },
};

/** The windows the services ask for, in days before today (UTC): see api/routes/legacy/prices.ts. */
export const PRECOMPUTED_WINDOWS = {
  /** seriesStats' `since`: price-aggregates 3650, stash-score 364, predict 89 (the first is the batch's earliest day: COVERAGE). */
  analysisSinceDays: [3650, 364, 89],
  /** sourceMedians' `days` (its `since` is days + 400 before today). */
  medianDays: 30,
  /** auctionSalesCountsOf: sales since 29 and 364 days before today. */
  salesSinceDays: { since30: 29, since365: 364 },
} as const;

/** The key an answer is filed under: its parameters with sorted names (values as the service passes them). */
export function answerKey(params: Record<string, unknown>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

/** A UTC day N days before `today`, as the services compute their windows. */
export const utcDayBefore = (n: number, today: Date) =>
  new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - n * 86_400_000).toISOString().slice(0, 10);

// Scope columns parsed; every other column is kept exactly as ClickHouse sent it, so a stored answer
// parses through the per-card query's own row schema as the live answer does.
const ScopeRow = z.looseObject({ card_id: number, variant_id: number, grading_company: text, grade: text });
type Cards = { card_ids: number[] };

/** Empties the batch table (holo.card_analytics_batch) before the next batch. */
export const clearCardAnalyticsBatch = chStatement<Record<string, never>>('cardAnalytics/batch_clear');
/** Fills the batch table with the cards' daily market rows since a day: read once, used by both queries below. */
export const fillCardAnalyticsBatch = chStatement<Cards & { since: string }>('cardAnalytics/batch_fill');

const WindowRow = z.looseObject({ ...ScopeRow.shape, since: text });
/** legacy_price_analysis for every single-variant scope of the batch's cards, once per window start in `sinces`. */
export const seriesStatsOfBatch = chQuery<{ sinces: string[] }, typeof WindowRow>('cardAnalytics/card_analytics_series_stats', WindowRow);
/** legacy_source_medians for every single-variant scope of the batch's cards. */
export const sourceMediansOfBatch = chQuery<{ since: string; days: number }, typeof ScopeRow>(
  'cardAnalytics/card_analytics_source_medians',
  ScopeRow,
);
/** legacy_sales_counts per variant and grade of the cards, and per variant over every grade ('' company and grade). */
export const salesCountsOfCards = chQuery<Cards & { since30: string; since365: string }, typeof ScopeRow>(
  'cardAnalytics/card_analytics_sales_counts',
  ScopeRow,
);

type Filed = { generation: number };
/**
 * legacy_price_history and pi_card_series of every variant of the batch's cards (the batch table)
 * since a day, as card_analytics_copy.sql's lines: ClickHouse writes each card's answers as JSON
 * text, handed to PostgreSQL as they are.
 */
export const dailySeriesOfBatch = chTabSeparated<Filed & { since: string }>('cardAnalytics/card_analytics_daily_series');
/** legacy_price_snapshots of every variant and source of the batch's cards since a day, as card_analytics_copy.sql's lines. */
export const snapshotsOfBatch = chTabSeparated<Filed & { since: string }>('cardAnalytics/card_analytics_snapshots');
/** history_points and history_points_global of every variant of the cards since a day, as card_analytics_copy.sql's lines. */
export const historyPointsOfCards = chTabSeparated<Filed & Cards & { since: string; days: number }>(
  'cardAnalytics/card_analytics_history_points',
);

const Changed = z.object({ card_ids: z.array(number), rates_changed: z.union([z.boolean(), z.number()]).transform(Boolean) });
/** The cards whose answers a load since an instant moved (price rows, or rates of a currency they are priced in), and whether rates were loaded. */
export const cardsChangedSince = chQuery<{ since: string }, typeof Changed>('cardAnalytics/card_analytics_changed_cards', Changed);

const State = z.object({
  generation: number,
  prices_epoch: z.string(),
  day: z.string(),
  watermark: z.date(),
  pending_since: z.date().nullable(),
});
/** The precompute's state (no row before the first precompute). */
export const cardAnalyticsState = pgQuery<[], typeof State>('cardAnalytics/card_analytics_state', State);
/** A precompute starts: marks it running, so readers keep to the current generation meanwhile. */
export const beginCardAnalytics = pgStatement<[]>('cardAnalytics/card_analytics_begin');
/** Drops what an interrupted precompute wrote beyond the current generation. */
export const discardUnpublishedCardAnalytics = pgStatement<[]>('cardAnalytics/card_analytics_discard');
/** A batch's answers under a generation: TabSeparated rows of card id, query, generation and answers (JSON text). */
export const copyCardAnalytics = pgCopyIn('cardAnalytics/card_analytics_copy');
/** Makes a generation current under a prices epoch and day. */
export const publishCardAnalytics = pgStatement<[generation: number, pricesEpoch: string, day: string, watermark: Date]>(
  'cardAnalytics/card_analytics_publish',
);
/** Deletes answers a newer current generation replaced. */
export const pruneCardAnalytics = pgStatement<[]>('cardAnalytics/card_analytics_prune');

const Answers = z.object({
  query: z.string().nullable(),
  answers: z.string().nullable(),
  prices_epoch: z.string(),
  day: z.string(),
  pending: z.boolean(),
});
/** One card's precomputed answers of the named queries, with the state they were computed under. */
export const cardAnalyticsOfCard = pgQuery<[cardId: number, queries: readonly string[]], typeof Answers>(
  'cardAnalytics/card_analytics_of_card',
  Answers,
  { prepared: true },
);
const Answer = z.object({ answer: z.string().nullable(), generation: z.string(), prices_epoch: z.string(), pending: z.boolean() });
/** One precomputed answer of a card (the market: MARKET_CARD) by query and key, with its generation and state. */
export const cardAnalyticsAnswer = pgQuery<[cardId: number, query: string, key: string], typeof Answer>(
  'cardAnalytics/card_analytics_answer',
  Answer,
  { prepared: true },
);
const Game = z.object({ slug: z.string() });
/** The games the movers are precomputed for (besides every game at once). */
export const cardAnalyticsGames = pgQuery<[], typeof Game>('cardAnalytics/card_analytics_games', Game);
/** Waits for, and takes, the precompute's lock on this session. */
export const lockCardAnalytics = pgStatement<[]>('cardAnalytics/card_analytics_lock');
/** Releases the precompute's lock of this session. */
export const unlockCardAnalytics = pgStatement<[]>('cardAnalytics/card_analytics_unlock');
