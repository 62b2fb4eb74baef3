// A collector's cards (spec: "Collection entry", the collection rows of "Named paths" and
// "Operations whose path is not given"). Values are USD, from the latest prices: an entry is worth
// quantity × the lowest latest US market price of its variant (ungraded: times its condition's
// factor; graded: the price of that company and grade, else the ungraded near-mint price).
import { grade, intParam, text, z, PG_INT_MAX } from './common.js';
import { CONDITIONS, gradingRuleSchema } from './marketplace.js';
import { centAmount } from './money.js';

export const COLLECTION_GRADERS = ['PSA', 'BGS', 'CGC'] as const;
export const COLLECTION_LIMITS = { maxQuantity: 100_000, maxEntries: 50_000, pageMax: 200 } as const;

const quantity = z.number().int().min(1).max(COLLECTION_LIMITS.maxQuantity);
const pricePaid = centAmount({ min: 0, max: 1e9, description: 'USD per card, at most two decimals' });
const variant = text({ max: 60 }).openapi({
  description:
    "the card's variant as the legacy surface names it (normal, holofoil, reverse-holo, 1st-edition holofoil, …); omitted: the card's primary variant",
});

/** A card as a collector's lists name it (collection entries, wishlist items). */
export const NamedCard = { card_id: z.number().int(), card_name: z.string(), tcg_slug: z.string(), set_name: z.string() };

export const CollectionEntry = z
  .object({
    id: z.number().int(),
    ...NamedCard,
    quantity: z.number().int(),
    condition: z.enum(CONDITIONS),
    variant: z.string(),
    price_paid: z.number().nullable(),
    graded: z.boolean(),
    grading_company: z.enum(COLLECTION_GRADERS).nullable(),
    grade: z.number().nullable(),
    unit_value: z.number().nullable().openapi({ description: 'USD per card from the latest prices; null without a price' }),
    current_value: z.number().nullable().openapi({ description: 'USD: unit_value × quantity' }),
    image_url: z.string(),
    added_at: z.string(),
  })
  .openapi('CollectionEntry');

/**
 * Grading fields that disagree with `graded`: a company or grade on an ungraded card (the add's
 * schema, the change as merged with the stored entry, and the CSV import).
 */
export const gradingMisplaced = (e: { graded: boolean; grading_company?: string | null; grade?: number | null }): boolean =>
  !e.graded && (Boolean(e.grading_company) || e.grade != null);

export const AddToCollectionBody = z
  .strictObject({
    card_id: z.number().int().positive().max(PG_INT_MAX),
    quantity: quantity.default(1),
    condition: z.enum(CONDITIONS).default('NM'),
    variant: variant.optional(),
    price_paid: pricePaid.optional(),
    graded: z.boolean().default(false),
    grading_company: z.enum(COLLECTION_GRADERS).optional(),
    grade: grade.optional(),
  })
  .refine((e) => !gradingMisplaced(e), {
    message: 'grading_company and grade belong to a graded card: send graded: true',
    path: ['graded'],
  })
  .openapi('AddToCollection', {
    description: 'The same card, variant, condition and grading added again adds to that entry’s quantity (price_paid: the latest given).',
    ...gradingRuleSchema(false),
  });

export const UpdateCollectionEntryBody = z
  .strictObject({
    quantity: quantity.optional(),
    condition: z.enum(CONDITIONS).optional(),
    variant: variant.optional(),
    price_paid: pricePaid.nullable().optional(),
    graded: z.boolean().optional(),
    grading_company: z.enum(COLLECTION_GRADERS).nullable().optional(),
    grade: grade.nullable().optional(),
  })
  .openapi('UpdateCollectionEntry');

export const CollectionQuery = z.strictObject({
  limit: intParam({ min: 1, max: COLLECTION_LIMITS.pageMax }).default(50),
  offset: intParam({ min: 0, max: 1_000_000 }).default(0),
  tcg_slug: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/)
    .optional(),
});
export const CollectionPage = z.object({ items: z.array(CollectionEntry), total: z.number().int() }).openapi('CollectionPage');
export const CollectionEntryIdParams = z.strictObject({ entry_id: intParam({ min: 1, max: PG_INT_MAX }) });

export const CollectionSummary = z
  .object({
    total_value: z.number(),
    card_count: z.number().int(),
    change_24h: z.number(),
    change_24h_pct: z.number().nullable(),
    change_7d: z.number(),
    change_7d_pct: z.number().nullable(),
    by_tcg: z.record(z.string(), z.number()),
    top_card: z.object({ card_id: z.number().int(), name: z.string(), value: z.number() }).nullable(),
    currency: z.literal('USD'),
  })
  .openapi('CollectionSummary', {
    description:
      'Values in USD from the latest prices. The changes compare the ungraded market value of the same cards one and seven days before the newest price day; graded entries count at their current value both times.',
  });

export const ANALYTICS_PERIODS = ['30', '90', '365'] as const;
export const CollectionAnalyticsQuery = z.strictObject({
  days: z
    .enum(ANALYTICS_PERIODS)
    .default('30')
    .transform(Number)
    .openapi({ type: 'integer', enum: [30, 90, 365], description: 'the period, in days (default 30)' }),
});
const money = z.number().openapi({ description: 'USD' });
const CollectionMover = z
  .object({
    card_id: z.number().int(),
    card_name: z.string(),
    value: money.openapi({ description: 'USD: what the ungraded cards of the card are worth now' }),
    change: money.openapi({ description: 'USD over the period' }),
    change_pct: z.number().nullable(),
  })
  .openapi('CollectionMover');
const Share = { cards: z.number().int(), value: money };
export const CollectionAnalytics = z
  .object({
    currency: z.literal('USD'),
    days: z.number().int(),
    from: z.string().openapi({ description: 'first day of the period (YYYY-MM-DD)' }),
    to: z.string().openapi({ description: 'the newest price day of the collection’s cards' }),
    daily_value: z
      .array(z.object({ date: z.string(), value: money }))
      .openapi({ description: 'one point a day, from..to: what today’s cards were worth at each day’s prices' }),
    change: money,
    change_pct: z.number().nullable(),
    gainers: z.array(CollectionMover).openapi({ description: 'at most 5 cards whose ungraded value rose most over the period' }),
    losers: z.array(CollectionMover).openapi({ description: 'at most 5 cards whose ungraded value fell most over the period' }),
    by_set: z
      .array(z.object({ set_id: z.number().int(), set_name: z.string(), tcg_slug: z.string(), ...Share }))
      .openapi({ description: 'every set of the collection, most valuable first' }),
    by_condition: z
      .array(z.object({ condition: z.enum(CONDITIONS), ...Share }))
      .openapi({ description: 'the ungraded cards by condition, NM to DMG, conditions held only' }),
    graded: z.object(Share).openapi({ description: 'the graded cards' }),
  })
  .openapi('CollectionAnalytics', {
    description:
      'Values in USD. The daily value prices the ungraded cards held today at each day’s lowest US market price (the last known one carried forward; a card without a price yet counts nothing) and the graded cards at their current value, so its last day is the summary’s total up to rounding.',
  });

export const CollectionCsv = z.string().openapi('CollectionCsv', {
  description: 'CSV: card_id,name,set,tcg,quantity,condition,variant,price_paid,current_value,graded,grading_company,grade',
});
export const CollectionCsvUpload = z
  .strictObject({
    file: z.string().openapi({
      type: 'string',
      format: 'binary',
      description: 'UTF-8 CSV, header row card_id,quantity,condition,price_paid (variant, graded, grading_company, grade optional)',
    }),
  })
  .openapi('CollectionCsvUpload');
export const CollectionImported = z
  .object({ ok: z.literal(true), rows: z.number().int(), entries: z.number().int() })
  .openapi('CollectionImported', { description: 'rows read, and entries written (rows naming the same entry are summed)' });
