// Sealed products (spec: the legacy sealed-product routes): rows from PostgreSQL, prices from ClickHouse.
import { z } from 'zod';
import { chQuery, col, pgQuery } from './typedQuery.js';

const { number, text } = col;

const SealedRow = z.object({
  id: z.number().int(),
  name: z.string(),
  category: z.string(),
  set_id: z.number().int().nullable(),
  set_code: z.string().nullable(),
  added_at: z.string().nullable(),
  eu_marketplace_product_id: z.string().nullable(),
  total: z.number().int(),
});
/** A page of a game's sealed products (or one), each row with the total. */
export const sealedProducts = pgQuery<
  [slug: string, setId: number | null, limit: number, offset: number, productId: number | null],
  typeof SealedRow
>('sealed/sealed_products', SealedRow);

const SealedPriceRow = z.object({
  product_id: number,
  region: text,
  source: text,
  price_type: text,
  currency: text,
  amount: number,
  as_of: text,
});
/** The latest price of every series of the products. */
export const sealedLatestPrices = chQuery<{ ids: number[] }, typeof SealedPriceRow>('sealed/sealed_latest', SealedPriceRow);

const SealedDay = z.object({ date: text, price_type: text, currency: text, price: number });
/** A product's daily prices since `since`. */
export const sealedHistory = chQuery<{ id: number; since: string }, typeof SealedDay>('sealed/sealed_history', SealedDay);
