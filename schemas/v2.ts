// The v2 data surface (spec: "Game (v2)" through "History point (v2)", "v2 data endpoints").
import { IsoDate, intParam, text, z } from './common.js';
import { UpdatedAfter } from './sync.js';

export const GameRef = z.object({ slug: z.string(), name: z.string() });

export const Game = z
  .object({
    slug: z.string(),
    name: z.string(),
    active: z.boolean(),
    cards: z.number().int().nullable(),
    sets: z.number().int().nullable(),
  })
  .openapi('GameV2');

export const SetSummary = z
  .object({
    id: z.number().int(),
    code: z.string(),
    name: z.string(),
    series: z.string().nullable(),
    release_date: IsoDate.nullable(),
    total_cards: z.number().int(),
    card_count: z.number().int(),
    is_promo: z.boolean(),
    language: z.string(),
  })
  .openapi('SetV2');

const updatedAt = z.string().openapi({
  format: 'date-time',
  description: 'when this changed last (a set: its own fields or any of its cards); pass it back as updated_after',
});
export const ListedSet = SetSummary.extend({ updated_at: updatedAt }).openapi('ListedSetV2');

export const SetHeader = SetSummary.omit({ card_count: true }).extend({ game: GameRef }).openapi('SetHeaderV2');

// What every card shape starts with.
const cardCore = {
  id: z.number().int(),
  name: z.string(),
  collector_number: z.string(),
  rarity: z.string().nullable(),
  card_type: z.string().nullable(),
};
const SetRef = z.object({ id: z.number().int(), code: z.string(), name: z.string() });

export const CardSummary = z.object({ ...cardCore, thumbnail_url: z.string().nullable() }).openapi('CardSummaryV2');
export const ListedCard = CardSummary.extend({ updated_at: updatedAt }).openapi('ListedCardV2');

export const RawPrice = z.object({
  source: z.string(),
  price_type: z.string(),
  currency: z.string(),
  amount: z.number(),
  as_of: IsoDate,
});

export const GradedPrice = z.object({
  source: z.string(),
  grading_company: z
    .string()
    .openapi({ description: 'psa, bgs, cgc, sgc, ace, or other (cross-company aggregate; pc17/pc18 are buckets of unknown meaning)' }),
  grade: z.string(),
  currency: z.string(),
  amount: z.number(),
  as_of: IsoDate,
});

export const VariantPrices = z.object({ eu: z.array(RawPrice), us: z.array(RawPrice), graded: z.array(GradedPrice) });

export const Variant = z.object({
  id: z.number().int(),
  finish: z.string(),
  variant_label: z.string(),
  print_rarity: z.string().nullable(),
  is_ex: z.boolean().nullable(),
  is_v: z.boolean().nullable(),
  image_url: z.string().nullable(),
  image_is_fallback: z.boolean().nullable(),
  prices: VariantPrices,
});

export const Printing = z.object({
  id: z.number().int(),
  language: z.string(),
  print_run: z.string(),
  collector_number: z.string(),
  is_promo: z.boolean(),
  variants: z.array(Variant),
});

export const CROSS_REF_KEYS = [
  'eu_marketplace_product_id',
  'us_marketplace_product_id',
  'price_guide_id',
  'mtg_dataset_uuid',
  'mtg_card_db_id',
  'ygo_card_db_id',
] as const;

export const CardImage = z.object({
  url: z.string(),
  source: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  format: z.string(),
  is_placeholder: z.boolean(),
});

export const CardDetail = z
  .object({
    ...cardCore,
    game: GameRef,
    set: SetRef,
    cross_refs: z.object(
      Object.fromEntries(CROSS_REF_KEYS.map((k) => [k, z.string().nullable()])) as Record<
        (typeof CROSS_REF_KEYS)[number],
        z.ZodNullable<z.ZodString>
      >,
    ),
    images: z.array(CardImage),
    printings: z.array(Printing),
  })
  .openapi('CardDetailV2');

export const HistoryPoint = z.object({ date: IsoDate, amount: z.number(), source: z.string(), price_type: z.string() });

// Requests --------------------------------------------------------------------------------------

export const StatsResponse = z
  .object({
    cards: z.number().int(),
    price_points: z.number().int(),
    sets: z.number().int(),
    games: z.number().int(),
    variants: z.number().int(),
    images: z.number().int(),
    updated_at: z.string().openapi({ format: 'date-time', description: 'when the newest price point was loaded' }),
  })
  .openapi('StatsV2');

export const GamesResponse = z.object({ items: z.array(Game) });

export const GameParams = z.object({ slug: text({ max: 64 }) });
// v2 lists page 1-based with a size bounded per list (spec: Pagination and size).
const pagingQuery = (maxSize: number, defaultSize: number) =>
  z.strictObject({
    page: intParam({ min: 1, max: 100000 }).default(1),
    size: intParam({ min: 1, max: maxSize }).default(defaultSize),
  });
const rowId = (description?: string) => intParam({ min: 1, max: 2147483647, description });

const changedSince = { updated_after: UpdatedAfter.optional() };
export const GameQuery = pagingQuery(200, 50).extend(changedSince);
const pageFields = { page: z.number().int(), size: z.number().int() };

export const GameResponse = Game.extend({
  ...pageFields,
  sets_total: z.number().int().openapi({ description: 'sets in the list (with updated_after: the sets changed since)' }),
  sets_list: z.array(ListedSet),
});

export const SetParams = z.object({ set_id: rowId() });
export const SetQuery = pagingQuery(250, 60).extend(changedSince);
export const SetResponse = SetHeader.extend({
  ...pageFields,
  cards_total: z.number().int().openapi({ description: 'cards in the list (with updated_after: the cards changed since)' }),
  cards: z.array(ListedCard),
});

export const CardParams = z.object({ card_id: rowId() });

export const REGIONS = ['eu', 'us', 'jp', 'global'] as const;
export const HistoryQuery = z.strictObject({
  variant_id: rowId("defaults to the card's first variant").optional(),
  region: z.enum(REGIONS).default('eu'),
  days: intParam({ min: 1, max: 3650 }).default(90),
});
export const ChartQuery = HistoryQuery.extend({
  width: intParam({ min: 200, max: 2000, description: 'pixels' }).default(800),
  height: intParam({ min: 120, max: 1200, description: 'pixels' }).default(400),
  theme: z.enum(['light', 'dark']).default('light'),
});
export const ChartSvg = z.string().openapi({ description: 'an SVG document' });
export const ChartPng = z.string().openapi({ type: 'string', format: 'binary', description: 'a PNG image' });

export const HistoryResponse = z.object({
  card_id: z.number().int(),
  variant_id: z.number().int(),
  region: z.enum(REGIONS),
  currency: z.string(),
  days: z.number().int(),
  points: z.array(HistoryPoint),
});

export const ResolveQuery = z.strictObject({
  game: text({ max: 64 }).openapi({ description: 'game slug, e.g. pokemon' }),
  name: text({ max: 200 }).openapi({ description: 'card name, case-insensitive exact match' }),
  number: text({ max: 32 }).optional().openapi({ description: 'collector number; "4", "004" and "4/102" all match 4' }),
  set: text({ max: 64 }).optional().openapi({ description: 'set code (case-insensitive) or set id' }),
});
export const ResolvedCard = CardSummary.extend({ set: SetRef });
export const ResolveResponse = z.object({
  items: z.array(ResolvedCard),
  total: z.number().int(),
  ambiguous: z.boolean().openapi({ description: 'true when more than one card matches; narrow with number or set' }),
});
