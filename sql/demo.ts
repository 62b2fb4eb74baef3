// The demo data load (ingest/demo/): the catalogue facts the demo price model seeds from, the
// generators that write a year of history inside ClickHouse, and the service's own markers.
import { z } from 'zod';
import { chInsert, chStatement, pgQuery, pgStatement } from './typedQuery.js';

/** Seeds an empty auction watchlist with the most valuable cards. */
export const seedAuctionWatchlist = pgStatement<[cards: number]>('demo/auction_watchlist_seed');

const StateValue = z.object({ value: z.string() });
/** A value the service keeps about itself (no row: never set). */
export const serviceState = pgQuery<[key: string], typeof StateValue>('demo/service_state_get', StateValue);
/** Sets a value the service keeps about itself. */
export const setServiceState = pgStatement<[key: string, value: string]>('demo/service_state_set');

const Present = z.object({ present: z.number().int() });
/** A row when any card has a best price. */
export const anyCardBestPrice = pgQuery<[], typeof Present>('demo/card_best_prices_any', Present);
/** A row when any sealed product is catalogued. */
export const anySealedProduct = pgQuery<[], typeof Present>('demo/sealed_products_any', Present);

const SealedSeed = z.object({ id: z.number().int(), game: z.string(), eu: z.string() });
/** Sealed products with a European marketplace id. */
export const sealedProductsPricedInEu = pgQuery<[], typeof SealedSeed>('demo/sealed_products_priced_in_eu', SealedSeed);

type Generation = { days: number; end_date: string; batch_id: string; ingested_at: string };
type ModelGeneration = Generation & { epoch: number };
type NoParams = Record<string, never>;
export const createDemoSeries = chStatement<NoParams>('demo/create_demo_series');
export const dropDemoSeries = chStatement<NoParams>('demo/drop_demo_series');
export const createDemoSealed = chStatement<NoParams>('demo/create_demo_sealed');
export const dropDemoSealed = chStatement<NoParams>('demo/drop_demo_sealed');

/** A staged series (demo/create_demo_series.sql): its key, and what the price model needs (ingest/demoMarket/priceModel.ts SeriesQuote). */
const DemoSeriesInsert = z.object({
  variant_id: z.number().int(),
  card_id: z.number().int(),
  game: z.string(),
  region: z.string(),
  source: z.string(),
  price_type: z.string(),
  grading_company: z.string(),
  grade: z.string(),
  currency: z.string(),
  scale: z.number(),
  seed: z.number().int(),
  lag: z.number().int(),
  noise_width: z.number(),
  auction: z.boolean(),
  drift: z.number(),
  wave_amp: z.number(),
  wave_period: z.number(),
  wave_phase: z.number(),
  spike_height: z.number(),
  spike_day: z.number(),
  crash_depth: z.number(),
  crash_day: z.number(),
});
export type DemoSeriesInsert = z.input<typeof DemoSeriesInsert>;
/** Stages series for generateDemoPriceHistory. */
export const insertDemoSeries = chInsert('holo.demo_series', DemoSeriesInsert);
/** Stages sealed products with their guide value in euros for generateDemoSealedHistory. */
export const insertDemoSealed = chInsert(
  'holo.demo_sealed',
  z.object({ product_id: z.number().int(), game: z.string(), base_eur: z.number() }),
);
/** Daily ECB-style rates for the demo's days. */
export const generateDemoFxRates = chStatement<Generation>('demo/generate_fx_rates');
/** The price model's history of the staged series. */
export const generateDemoPriceHistory = chStatement<ModelGeneration>('demo/generate_price_history');
/** A year of history for the staged sealed products. */
export const generateDemoSealedHistory = chStatement<Generation>('demo/generate_sealed_history');
