// Market and price-intelligence queries (spec: "Market intelligence, price intelligence"): one
// typed function per query file. Market-wide figures come from ClickHouse (holo.market_daily and
// friends); names, counts and current reference prices from PostgreSQL.
import { z } from 'zod';
import { chQuery, col, pgQuery } from './typedQuery.js';

const { number, text } = col;

const CardLabel = z.object({
  card_id: z.number().int(),
  name: z.string(),
  set_name: z.string(),
  set_code: z.string(),
  tcg_slug: z.string(),
  rarity: z.string().nullable(),
});
export type CardLabel = z.infer<typeof CardLabel>;
/** Name, set and game of the given cards. */
export const cardLabels = pgQuery<[cardIds: number[]], typeof CardLabel>('market/card_labels', CardLabel);

/** [card_id, current, change_abs, change_pct, volatility] */
const MoverTuple = z.tuple([number, number, number, number, number]);
export type MoverTuple = z.infer<typeof MoverTuple>;
const MoversRow = z.object({
  newest_day: text.nullable(),
  gainers: z.array(MoverTuple),
  losers: z.array(MoverTuple),
  most_volatile: z.array(MoverTuple),
});
/** Gainers, losers and the most volatile cards of a game over `days`, as of the newest day (one row). */
export const marketMovers = chQuery<{ game: string; days: number; limit: number }, typeof MoversRow>('market/market_movers', MoversRow);

const MarketIndexRow = z.object({
  game: text,
  newest_day: text,
  series: number,
  cards: number,
  value_now: number,
  value_then: number,
  rising: number,
  falling: number,
  holding: number,
});
/** Per game: the market index now and `days` ago, and how many series rose, fell or held. */
export const marketIndex = chQuery<{ days: number }, typeof MarketIndexRow>('market/market_index', MarketIndexRow);

const TrendRow = z.object({
  card_id: number,
  current: number,
  slope_per_day: number,
  points: number,
  predicted: number,
  predicted_change_pct: number,
});
/** Cards whose least-squares trend over `days` points in `direction`, with the price `ahead` days on. */
export const trendingCards = chQuery<
  { game: string; days: number; min_points: number; ahead: number; direction: 1 | -1; limit: number },
  typeof TrendRow
>('market/market_trending', TrendRow);

const FxRateRow = z.object({ currency: text, day: text, usd_per_unit: number });
/** The newest USD rate of each currency asked for. */
export const latestFxRates = chQuery<{ currencies: string[] }, typeof FxRateRow>('market/fx_latest', FxRateRow);

const PricePointTotals = z.object({ price_points: number, updated_at: text.nullable() });
/** All price points and when the newest landed (one row). */
export const pricePointTotals = chQuery<Record<string, never>, typeof PricePointTotals>('market/price_point_totals', PricePointTotals);

const UserCounts = z.object({ users: z.number().int(), sellers: z.number().int() });
/** Accounts and sellers (one row). */
export const userCounts = pgQuery<[], typeof UserCounts>('market/user_counts', UserCounts);

const BestDeal = z.object({
  card_id: z.number().int(),
  name: z.string(),
  set_name: z.string(),
  tcg_slug: z.string(),
  finish: z.string(),
  print_run: z.string(),
  market_price: number,
  lowest_price: number,
  source: z.string(),
  as_of: text,
  discount_pct: number,
});
/** Variants whose lowest ask is furthest below their market price. */
export const bestDeals = pgQuery<[game: string | null, minDiscountPct: number, limit: number], typeof BestDeal>(
  'market/market_best_deals',
  BestDeal,
);

/** t: the widest variant as [variant_id, low, high, cheapest source, dearest source, sources]. */
const SpreadRow = z.object({ card_id: number, t: z.tuple([number, number, number, text, text, number]), spread_pct: number });
/** Cards whose sources disagree most on today's price. */
export const marketSpread = chQuery<{ game: string; min_spread_pct: number; limit: number }, typeof SpreadRow>(
  'market/market_spread',
  SpreadRow,
);

const RecentUpdateRow = z.object({ card_id: number, t: z.tuple([text, number, number, text]) });
/** The most recently changed card prices. */
export const recentUpdates = chQuery<{ game: string; limit: number }, typeof RecentUpdateRow>(
  'market/market_recent_updates',
  RecentUpdateRow,
);

const SourceCoverageRow = z.object({
  source: text,
  region: text,
  currencies: z.array(text),
  cards: text,
  variants: text,
  last_day: text,
  values: text,
});
/** What each price source covers: cards, variants, currencies and its newest day. */
export const sourceCoverage = chQuery<Record<string, never>, typeof SourceCoverageRow>('market/source_coverage', SourceCoverageRow);

const EuroPoint = z.object({ date: text, market_price_eur: number });
/** A card's daily market price in euros since `since` (median across sources). */
export const cardHistoryEur = chQuery<{ card_id: number; variant_ids: number[]; since: string }, typeof EuroPoint>(
  'market/pi_history_eur',
  EuroPoint,
);

const PricePointStat = z.object({ game: text, source: text, points: number, outliers: number, last_day: text });
/** Price points and outliers per game and source, with each pair's newest day. */
export const pricePointStats = chQuery<Record<string, never>, typeof PricePointStat>('market/price_point_stats', PricePointStat);

const PricedCards = z.object({ n: z.number().int() });
/** Cards with a current best price (one row). */
export const pricedCardCount = pgQuery<[], typeof PricedCards>('market/priced_card_count', PricedCards);

const GameCounts = z.object({
  tcg_slug: z.string(),
  sets: z.number().int(),
  cards: z.number().int(),
  printings: z.number().int(),
  variants: z.number().int(),
  priced_cards: z.number().int(),
});
/** Sets, cards, printings, variants and priced cards per game. */
export const catalogueDetailCounts = pgQuery<[], typeof GameCounts>('market/catalogue_detail_counts', GameCounts);
