// The price-intelligence lists: a card's latest prices by source, a set's prices (both from the
// prices materialised in PostgreSQL) and a card's daily series per source (ClickHouse history).
import { z } from 'zod';
import { chQuery, col, pgQuery } from './typedQuery.js';

const int = z.number().int();

const CardPriceRow = z.object({
  variant_id: int,
  finish: z.string(),
  print_run: z.string(),
  language: z.string(),
  source: z.string(),
  region: z.string(),
  price_type: z.string(),
  currency: z.string(),
  amount: z.number(),
  as_of: z.string(),
  total: int,
});
/** A card's latest ungraded prices by source, variant and price type, with the filter's total. */
export const cardLatestPrices = pgQuery<
  [cardId: number, source: string | null, foilStatus: string | null, limit: number, offset: number],
  typeof CardPriceRow
>('priceLists/pi_card_latest_prices', CardPriceRow);

const SetPriceRow = z.object({
  card_id: int,
  name: z.string(),
  number: z.string(),
  variant_id: int,
  finish: z.string(),
  print_run: z.string(),
  source: z.string(),
  region: z.string(),
  currency: z.string(),
  amount: z.number(),
  as_of: z.string(),
  total: int,
});
/** A set's cards with each variant's latest market price per source, with the filter's total. */
export const setLatestPrices = pgQuery<
  [setId: number, source: string | null, finish: string | null, limit: number, offset: number],
  typeof SetPriceRow
>('priceLists/pi_set_prices', SetPriceRow);

const SeriesPoint = z.object({ date: z.string(), source: z.string(), market_price_eur: col.number });
/** A card's daily market price in euros per source between two days. */
export const cardSeriesEur = chQuery<
  { card_id: number; variant_ids: number[]; start_date: string; end_date: string; source: string },
  typeof SeriesPoint
>('priceLists/pi_card_series', SeriesPoint);
