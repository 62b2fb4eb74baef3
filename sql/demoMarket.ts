// What the demo market (ingest/demoMarket/) reads of the catalogue: the variants its price model
// quotes and the upstream ids each feed quotes them under. One typed function per query file.
import { z } from 'zod';
import { pgQuery, pgStatement } from './typedQuery.js';

const MarketVariant = z.object({
  variant_id: z.number().int(),
  card_id: z.number().int(),
  printing_id: z.number().int(),
  game: z.string(),
  external_key: z.string(),
  card_name: z.string(),
  number: z.string(),
  set_name: z.string(),
  rarity: z.string().nullable(),
  finish: z.string(),
  print_run: z.string(),
  year: z.number().int().nullable(),
});
export type MarketVariant = z.infer<typeof MarketVariant>;
/** A game's variants with the facts the price model and the feeds need. */
export const demoMarketVariants = pgQuery<[game: string], typeof MarketVariant>('demoMarket/demo_market_variants', MarketVariant);

const MarketRef = z.object({ ref_value: z.string(), card_id: z.number().int(), printing_id: z.number().int().nullable() });
export type MarketRef = z.infer<typeof MarketRef>;
/** A game's cross references of one kind. */
export const demoMarketRefs = pgQuery<[game: string, refKey: string], typeof MarketRef>('demoMarket/demo_market_refs', MarketRef);

const WatchedCard = z.object({ card_id: z.number().int() });
/** The watched cards of a game. */
export const watchedCards = pgQuery<[game: string], typeof WatchedCard>('demoMarket/auction_watchlist_cards', WatchedCard);
/** Seeds an empty auction watchlist with the given cards. */
export const seedAuctionWatchlistCards = pgStatement<[cardIds: number[]]>('demoMarket/auction_watchlist_seed_cards');
