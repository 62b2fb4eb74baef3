// The write path's own reads and writes (ingest/): feed validators, the watchlist, the outlier
// baseline, and the latest prices materialised in PostgreSQL. One typed function per query file.
import type { ClickHouseClient } from '@clickhouse/client';
import { z } from 'zod';
import { sqlFile } from './sqlFile.js';
import { chInsert, chQuery, chStreamQuery, col, pgQuery, pgStatement } from './typedQuery.js';

/** A row of holo.price_points as a load writes it: DateTime64 as UTC text, amount as exact decimal text. */
const PricePointInsert = z.object({
  card_id: z.number().int(),
  variant_id: z.number().int(),
  game: z.string(),
  region: z.enum(['eu', 'us', 'jp']),
  source: z.string(),
  price_type: z.string(),
  grading_company: z.string(),
  grade: z.string(),
  currency: z.string(),
  amount: z.string(),
  as_of: z.string(),
  observation_id: z.string(),
  ingested_at: z.string(),
  is_outlier: z.boolean(),
  batch_id: z.string(),
});
export type PricePointInsert = z.input<typeof PricePointInsert>;
/** The columns a load writes (the ingest benchmark reads and re-inserts the same). */
export const PRICE_POINT_COLUMNS = Object.keys(PricePointInsert.shape);
/** Inserts price observations (a load's chunk; its settings carry the deduplication token). */
export const insertPricePoints = chInsert('holo.price_points', PricePointInsert);

const FxRateInsert = z.object({ day: z.string(), currency: z.string(), rate: z.string(), source: z.string(), ingested_at: z.string() });
/** Inserts euro reference rates (rate: units of currency per 1 EUR, exact decimal text). */
export const insertFxRates = chInsert('holo.fx_rates', FxRateInsert);

/** One series' latest price; amount and day as exact text (PostgreSQL variant_prices_latest, ClickHouse price_latest). */
export const LatestPriceRow = z.object({
  variant_id: col.number,
  region: z.string(),
  source: z.string(),
  price_type: z.string(),
  grading_company: z.string(),
  grade: z.string(),
  currency: z.string(),
  amount: z.string(),
  as_of: z.string(),
});
export type LatestRow = z.infer<typeof LatestPriceRow>;
/** The latest non-outlier price of every series of the cards (every card when empty), from ClickHouse, streamed. */
export const latestPricesForCards = chStreamQuery<{ card_ids: number[] }, typeof LatestPriceRow>(
  'priceLoads/latest_prices_for_cards',
  LatestPriceRow,
);

/** Moves latest prices forward (amounts and days as exact text); an older day never wins. */
export const upsertLatestPriceRows =
  pgStatement<
    [
      variantIds: number[],
      regions: string[],
      sources: string[],
      priceTypes: string[],
      gradingCompanies: string[],
      grades: string[],
      currencies: string[],
      amounts: string[],
      asOf: string[],
    ]
  >('priceLoads/latest_prices_upsert');

/** Recomputes the reference price of the cards (every card when null). */
export const refreshCardBestPriceRows = pgStatement<[cardIds: number[] | null]>('priceLoads/refresh_card_best_prices');

const Validators = z.object({ url: z.string(), etag: z.string().nullable(), last_modified: z.string().nullable() });
/** Remembered validators of feed documents. */
export const feedValidatorsOf = pgQuery<[urls: string[]], typeof Validators>('priceLoads/feed_validators_of', Validators);
/** Remembers feed documents' validators. */
export const rememberFeedValidators = pgStatement<[urls: string[], etags: (string | null)[], lastModified: (string | null)[]]>(
  'priceLoads/feed_validators_remember',
);

const WatchedRef = z.object({ ref: z.string(), name: z.string(), number: z.string(), set_name: z.string() });
/** The pokemontcg.io ids of a game's watched cards, with their name, number and set name. */
export const watchedCardRefs = pgQuery<[game: string], typeof WatchedRef>('priceLoads/auction_watchlist_refs', WatchedRef);

const Ref = z.object({ ref: z.string() });
/** A game's distinct upstream product ids of one kind (cross_refs.ref_key). */
export const marketProductIds = pgQuery<[game: string, refKey: string], typeof Ref>('priceLoads/market_product_ids', Ref);

const ImageSource = z.object({ card_id: z.number().int(), kind: z.enum(['small', 'large']), source_url: z.string() });
/** Upstream picture addresses of the cards' images (every card when null). */
export const imageSources = pgQuery<[cardIds: number[] | null], typeof ImageSource>('priceLoads/image_sources', ImageSource);

const GameCounts = z.object({
  game: z.string(),
  sets: z.number().int(),
  cards: z.number().int(),
  printings: z.number().int(),
  variants: z.number().int(),
});
/** Sets, cards, printings and variants per game. */
export const catalogueCountsPerGame = pgQuery<[], typeof GameCounts>('priceLoads/catalogue_counts_per_game', GameCounts);

const BASELINE_SQL = sqlFile('clickhouse/queries/priceLoads/recent_series_stats.sql');
/**
 * The outlier baseline: per series key (seriesKey) its median and MAD over the window. Read as
 * TabSeparated, not JSON: a whole game's baseline is a few hundred thousand short lines, and two
 * numbers per line need no row schema.
 */
export async function recentSeriesStats(
  ch: ClickHouseClient,
  params: { card_ids: number[]; sources: string[]; as_of: string; window_days: number; min_history: number },
): Promise<Map<string, { med: number; mad: number }>> {
  const rs = await ch.query({ query: BASELINE_SQL, query_params: params, format: 'TabSeparated' });
  const stats = new Map<string, { med: number; mad: number }>();
  for (const line of (await rs.text()).split('\n')) {
    if (!line) continue;
    const [series, med, mad] = line.split('\t');
    stats.set(series!.replaceAll('\\\\', '\\'), { med: Number(med), mad: Number(mad) });
  }
  return stats;
}

const NewestDay = z.object({ day: z.string() });
/** The newest day of any loaded market price (1970-01-01 when none). */
export const newestMarketDay = chQuery<Record<string, never>, typeof NewestDay>('priceLoads/newest_market_day', NewestDay);

/** The newest day of a source's reference rates (1970-01-01 when none): whether the ECB's daily file leaves a gap. */
export const newestFxDay = chQuery<{ source: string }, typeof NewestDay>('priceLoads/fx_newest_day', NewestDay);

const SourceValue = z.object({ variant_id: col.number, source: z.string(), usd: col.number });
/** Each source's newest market value in USD of the variants, over the window up to the day. */
export const crossSourceConsensus = chQuery<
  { card_ids: number[]; variant_ids: number[]; as_of: string; window_days: number },
  typeof SourceValue
>('priceLoads/cross_source_consensus', SourceValue);
