// What the local market feed server (ingest/demoMarket/) reads of the catalogue to quote prices
// in each upstream's format. One typed function per query file.
import { z } from 'zod';
import { pgQuery } from './typedQuery.js';

const textOrNull = z.string().nullable();
const texts = z.array(z.string());

const Product = z.object({ card_id: z.number().int(), external_key: z.string(), rarity: textOrNull, finishes: texts, print_runs: texts });
export type DemoProduct = z.infer<typeof Product>;
/** A game's cards with their finishes and print runs. */
export const demoProducts = pgQuery<[game: string], typeof Product>('demo_market_products', Product);

const UsSku = z.object({ ref_value: z.string(), rarity: textOrNull, finish: z.string(), print_run: z.string() });
/** A game's US-marketplace products with each variant's finish and print run. */
export const demoUsSkus = pgQuery<[game: string], typeof UsSku>('demo_market_us_skus', UsSku);

const RefFinishes = z.object({ ref_value: z.string(), rarity: textOrNull, finishes: texts });
/** Magic cards by Scryfall id with their finishes. */
export const demoScryfallCards = pgQuery<[], typeof RefFinishes>('demo_market_scryfall_cards', RefFinishes);
/** A game's European-marketplace products with their finishes. */
export const demoEuProducts = pgQuery<[game: string], typeof RefFinishes>('demo_market_eu_products', RefFinishes);

const GuideCard = z.object({
  ext: z.string(),
  name: z.string(),
  number: z.string(),
  rarity: textOrNull,
  set_name: z.string(),
  print_runs: texts,
});
/** A game's cards for the graded price guide. */
export const demoGuideCards = pgQuery<[game: string], typeof GuideCard>('demo_market_guide_cards', GuideCard);

const AuctionCard = GuideCard.omit({ print_runs: true });
/** One card by upstream key. */
export const demoAuctionCard = pgQuery<[game: string, externalKey: string], typeof AuctionCard>('demo_market_card', AuctionCard);
