// The legacy catalogue surface (spec: /tcgs, /{tcg_slug}/sets, /{tcg_slug}/cards, cards, sets and
// their statistics): one typed function per query file.
import { z } from 'zod';
import { chQuery, col, pgQuery } from './typedQuery.js';

const int = z.number().int();
const textOrNull = z.string().nullable();
const jsonObject = z.record(z.string(), z.unknown());
const priceOrNull = z.number().nullable();

const TcgRow = z.object({
  id: int,
  slug: z.string(),
  name: z.string(),
  publisher: textOrNull,
  logo_url: textOrNull,
  website_url: textOrNull,
  description: textOrNull,
  created_at: z.string(),
});
/** Every game, or the one `slug` names (null: all). */
export const legacyTcgs = pgQuery<[slug: string | null], typeof TcgRow>('legacyCatalogue/legacy_tcgs', TcgRow);

const SetRow = z.object({
  id: int,
  tcg_id: int,
  name: z.string(),
  code: z.string(),
  release_date: textOrNull,
  total_cards: int,
  logo_url: textOrNull,
  total: int,
});
/** A page of a game's sets (or the one `setId` names), newest first, each row with the total. */
export const legacySets = pgQuery<[slug: string, limit: number, offset: number, setId: number | null], typeof SetRow>(
  'legacyCatalogue/legacy_sets',
  SetRow,
);

export const CardRow = z.object({
  id: int,
  card_set_id: int,
  name: z.string(),
  number: z.string(),
  rarity: textOrNull,
  card_type: textOrNull,
  image_url: textOrNull,
  attributes: jsonObject,
});
export type CardRow = z.infer<typeof CardRow>;
const CardPageRow = CardRow.extend({ total: int });
/** A page of a game's cards, filtered by set, rarity and name substring, each row with the total. */
export const legacyCards = pgQuery<
  [slug: string, setId: number | null, rarity: string | null, name: string | null, limit: number, offset: number],
  typeof CardPageRow
>('legacyCatalogue/legacy_cards', CardPageRow);

const CardPriceRow = z.object({
  card_id: int,
  source: z.string(),
  finish: z.string(),
  print_run: z.string(),
  currency: z.string(),
  market_price: z.number(),
  low_price: priceOrNull,
  high_price: priceOrNull,
  recorded_at: z.string(),
});
export type CardPriceRow = z.infer<typeof CardPriceRow>;
/** The latest ungraded price per source and variant of the cards. */
export const legacyCardPrices = pgQuery<[cardIds: number[]], typeof CardPriceRow>('legacyCatalogue/legacy_card_prices', CardPriceRow);

const CardDetailRow = CardRow.extend({
  master_card_id: int,
  illustrator: textOrNull,
  legalities: jsonObject,
  set_name: z.string(),
  set_code: z.string(),
  tcg_slug: z.string(),
  best_price: priceOrNull,
});
/** The cards with set, game and best price; only those of the game `slug` when given. */
export const legacyCardDetails = pgQuery<[cardIds: number[], slug: string | null], typeof CardDetailRow>(
  'legacyCatalogue/legacy_card',
  CardDetailRow,
);

const SetStatsRow = z.object({
  set_id: int,
  card_count: int,
  priced_cards: int,
  min_price: priceOrNull,
  max_price: priceOrNull,
  avg_price: priceOrNull,
  total_value: z.number(),
});
/** Price statistics of a set's cards (no row: no such set). */
export const legacySetStats = pgQuery<[setId: number], typeof SetStatsRow>('legacyCatalogue/legacy_set_stats', SetStatsRow);

const ListedCard = CardRow.extend({
  set_name: z.string(),
  set_code: z.string(),
  tcg_slug: z.string(),
  best_price: priceOrNull,
  created_at: z.string(),
});
export type ListedCard = z.infer<typeof ListedCard>;
const TopCardRow = ListedCard.omit({ id: true }).extend({ card_id: int });
/** The most valuable cards of a set or a game (or everywhere). */
export const legacyTopCards = pgQuery<[setId: number | null, slug: string | null, limit: number], typeof TopCardRow>(
  'legacyCatalogue/legacy_top_cards',
  TopCardRow,
);
const AddedCardRow = ListedCard.extend({ total: int });
/** Cards added since a moment, newest first, each row with the total. */
export const legacyCardsAdded = pgQuery<[sinceIso: string, slug: string | null, limit: number], typeof AddedCardRow>(
  'legacyCatalogue/legacy_cards_added',
  AddedCardRow,
);

const CompletionRow = z.object({
  set_id: int,
  printed_total: int,
  rarity: textOrNull,
  cards: int,
  priced: int,
  value: z.number(),
  secret: int,
});
/** A set's cards per rarity: how many, how many priced, their value, how many secret (no row: no such set). */
export const legacySetCompletion = pgQuery<[setId: number], typeof CompletionRow>('legacyCatalogue/legacy_set_completion', CompletionRow);

const RelatedSetRow = z.object({
  id: int,
  name: z.string(),
  code: z.string(),
  language: z.string(),
  release_date: textOrNull,
  total_cards: int,
});
/** The same set in other languages. */
export const relatedLanguageSets = pgQuery<[setId: number], typeof RelatedSetRow>(
  'legacyCatalogue/legacy_related_language_sets',
  RelatedSetRow,
);

const Language = z.object({ language: z.string() });
/** The language a set is printed in. */
export const setLanguage = pgQuery<[setId: number], typeof Language>('legacyCatalogue/set_language', Language);

const NamedCard = z.object({
  id: int,
  name: z.string(),
  attributes: z.object({ evolvesFrom: z.string().optional(), evolvesTo: z.array(z.string()).optional() }).loose(),
});
export type NamedCard = z.infer<typeof NamedCard>;
const CardWithGame = NamedCard.extend({ game_id: int, set_id: int, game: z.string(), card_type: textOrNull });
/** A card with its game. */
export const cardWithGame = pgQuery<[cardId: number], typeof CardWithGame>('legacyCatalogue/card_with_game', CardWithGame);
/** One card per (lower-cased) name among `names` in a game, from the set `setId` when it has one. */
export const cardsByName = pgQuery<[gameId: number, setId: number, lowerNames: string[]], typeof NamedCard>(
  'legacyCatalogue/cards_by_name',
  NamedCard,
);

const VariantChange = z.object({ variant_id: col.number, current: col.number, past: col.number });
/** Seven-day change of the reference series of the given variants. */
export const variantChange7d = chQuery<{ card_ids: number[]; variant_ids: number[] }, typeof VariantChange>(
  'legacyCatalogue/variant_change_7d',
  VariantChange,
);

const SearchHit = CardRow.extend({
  set_name: z.string(),
  set_code: z.string(),
  tcg_slug: z.string(),
  best_price: priceOrNull,
  price_variant_id: int.nullable(),
  rank: int,
  total: int,
});
/** Cards matching a search: exact name, then prefix, then full-text words, then similar names; every filter ANDs. */
export const legacySearch = pgQuery<
  [
    q: string,
    slug: string | null,
    setId: number | null,
    rarity: string | null,
    minPrice: number | null,
    maxPrice: number | null,
    foilStatus: string | null,
    language: string | null,
    limit: number,
    offset: number,
  ],
  typeof SearchHit
>('legacyCatalogue/legacy_search', SearchHit);

const MarketplaceRefs = z.object({
  name: z.string(),
  number: z.string(),
  set_name: z.string(),
  game: z.string(),
  game_name: z.string(),
  eu: textOrNull,
  us: textOrNull,
});
/** What marketplace links of a card are built from: names and the marketplaces' product ids. */
export const marketplaceRefsOf = pgQuery<[cardId: number], typeof MarketplaceRefs>(
  'legacyCatalogue/card_marketplace_refs',
  MarketplaceRefs,
);
