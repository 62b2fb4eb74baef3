// The v2 catalogue (spec: /api/v2/games, sets, cards, resolve, stats): one typed function per query file.
import { z } from 'zod';
import { LatestPriceRow } from './priceLoads.js';
import { pgQuery, rows } from './typedQuery.js';

const int = z.number().int();
const textOrNull = z.string().nullable();

/** Whether a card exists (a row when it does). */
export const cardExists = pgQuery<[cardId: number], typeof rows.id>('v2Catalogue/card_exists', rows.id, { prepared: true });

const GameRow = z.object({ slug: z.string(), name: z.string(), active: z.boolean(), cards: int, sets: int });
/** Games that have cards, largest first. */
export const v2Games = pgQuery<[], typeof GameRow>('v2Catalogue/v2_games', GameRow);
const GameWithId = GameRow.extend({ id: int });
/** One game by slug. */
export const v2Game = pgQuery<[slug: string], typeof GameWithId>('v2Catalogue/v2_game', GameWithId);

const SetRow = z.object({
  id: int,
  code: z.string(),
  name: z.string(),
  series: textOrNull,
  release_date: textOrNull,
  total_cards: int,
  card_count: int,
  is_promo: z.boolean(),
  language: z.string(),
});
const ListedSetRow = SetRow.extend({ updated_at: z.string() });
/** A page of a game's sets, newest first; only those changed after updatedAfter when given. */
export const v2SetsOfGame = pgQuery<[gameId: number, limit: number, offset: number, updatedAfter: string | null], typeof ListedSetRow>(
  'v2Catalogue/v2_sets_of_game',
  ListedSetRow,
);
/** How many of a game's sets changed after a time. */
export const v2SetsChangedCount = pgQuery<[gameId: number, updatedAfter: string], typeof rows.count>(
  'v2Catalogue/v2_sets_changed_count',
  rows.count,
);

const SetHeaderRow = SetRow.omit({ card_count: true }).extend({ game_slug: z.string(), game_name: z.string(), cards_total: int });
/** One set with its game. */
export const v2SetHeader = pgQuery<[setId: number], typeof SetHeaderRow>('v2Catalogue/v2_set_header', SetHeaderRow);

const CardSummaryRow = z.object({
  id: int,
  name: z.string(),
  collector_number: z.string(),
  rarity: textOrNull,
  card_type: textOrNull,
  has_image: z.boolean(),
});
const ListedCardRow = CardSummaryRow.extend({ updated_at: z.string() });
/** A page of a set's cards in collector-number order; only those changed after updatedAfter when given. */
export const v2CardsOfSet = pgQuery<[setId: number, limit: number, offset: number, updatedAfter: string | null], typeof ListedCardRow>(
  'v2Catalogue/v2_cards_of_set',
  ListedCardRow,
);
/** How many of a set's cards changed after a time. */
export const v2CardsChangedCount = pgQuery<[setId: number, updatedAfter: string], typeof rows.count>(
  'v2Catalogue/v2_cards_changed_count',
  rows.count,
);

const CardRow = CardSummaryRow.omit({ has_image: true }).extend({
  game_slug: z.string(),
  game_name: z.string(),
  set_id: int,
  set_code: z.string(),
  set_name: z.string(),
});
/** One card with its game and set. */
export const v2Card = pgQuery<[cardId: number], typeof CardRow>('v2Catalogue/v2_card', CardRow, { prepared: true });

const CrossRef = z.object({ ref_key: z.string(), ref_value: z.string() });
/** A card's cross-references, one value per key. */
export const v2CardCrossRefs = pgQuery<[cardId: number], typeof CrossRef>('v2Catalogue/v2_card_cross_refs', CrossRef, { prepared: true });

const ImageRow = z.object({ kind: z.enum(['small', 'large']), source: z.string(), width: int, height: int });
/** A card's catalogued images, large first. */
export const v2CardImages = pgQuery<[cardId: number], typeof ImageRow>('v2Catalogue/v2_card_images', ImageRow, { prepared: true });

// Variant columns are NULL on the one row of a printing without variants (id NULL).
const PrintingVariantRow = z.object({
  printing_id: int,
  language: z.string(),
  print_run: z.string(),
  p_number: z.string(),
  is_promo: z.boolean(),
  id: int.nullable(),
  finish: textOrNull,
  variant_label: textOrNull,
  print_rarity: textOrNull,
  is_ex: z.boolean().nullable(),
  is_v: z.boolean().nullable(),
  image_url: textOrNull,
  image_is_fallback: z.boolean().nullable(),
});
/** A card's printings with their variants, in order. */
export const v2CardPrintings = pgQuery<[cardId: number], typeof PrintingVariantRow>('v2Catalogue/v2_card_printings', PrintingVariantRow, {
  prepared: true,
});

/** The latest price of every series of a card's variants (amount as exact decimal text). */
export const v2CardLatestPrices = pgQuery<[cardId: number], typeof LatestPriceRow>('v2Catalogue/v2_card_latest_prices', LatestPriceRow, {
  prepared: true,
});

const VariantOfCard = z.object({ card_id: int, variant_id: int.nullable() });
/** A card's variants in display order (no row: no such card). */
export const v2CardVariantIds = pgQuery<[cardId: number], typeof VariantOfCard>('v2Catalogue/v2_card_variant_ids', VariantOfCard, {
  prepared: true,
});

const ResolvedRow = CardSummaryRow.extend({ set_id: int, set_code: z.string(), set_name: z.string() });
/** Cards of a game by exact name, optionally narrowed by number and set (at most 50). */
export const v2ResolveCards = pgQuery<
  [game: string, name: string, number: string | null, setCode: string | null, setId: number | null],
  typeof ResolvedRow
>('v2Catalogue/v2_resolve_cards', ResolvedRow);

const Totals = z.object({ cards: int, sets: int, games: int, variants: int, images: int });
/** The catalogue's size (one row). */
export const catalogueTotals = pgQuery<[], typeof Totals>('v2Catalogue/catalogue_totals', Totals);

/** Whether a set exists (a row when it does). */
export const setExists = pgQuery<[setId: number], typeof rows.id>('v2Catalogue/set_exists', rows.id);

const ChartTitleRow = z.object({ name: z.string(), set_name: z.string(), collector_number: z.string(), variant_label: z.string() });
/** What names a card's price chart. */
export const v2ChartTitle = pgQuery<[cardId: number, variantId: number], typeof ChartTitleRow>('v2Catalogue/v2_chart_title', ChartTitleRow);
