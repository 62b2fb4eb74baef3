// A collector's cards (issue 16 §1): one typed function per query file.
import { z } from 'zod';
import { CONDITIONS } from '../schemas/marketplace.js';
import { COLLECTION_GRADERS, CollectionEntry } from '../schemas/collection.js';
import { pgAmount } from '../schemas/money.js';
import { chQuery, col, pgQuery, rows } from './typedQuery.js';

// An entry as stored and priced: the contract's entry without what the presenter derives (the
// variant's name, the total value, the picture URL), with what it derives them from.
const EntryValueRow = CollectionEntry.omit({ variant: true, current_value: true, image_url: true }).extend({
  variant_id: z.number().int(),
  finish: z.string(),
  print_run: z.string(),
  raw_price: z.number().nullable(),
  price_paid: pgAmount.nullable(),
});
export type EntryValueRow = z.infer<typeof EntryValueRow>;
/** Entries with their values from the latest prices, newest first. */
export const entryValues = pgQuery<[entryIds: number[], conditionFactors: string], typeof EntryValueRow>(
  'collection/collection_entry_values',
  EntryValueRow,
);
const PageId = z.object({ id: z.number().int(), total: z.number().int() });
/** One page of a user's entry ids (optionally of one game), with the number matching in all. */
export const collectionPageIds = pgQuery<[userId: number, tcgSlug: string | null, limit: number, offset: number], typeof PageId>(
  'collection/collection_page_ids',
  PageId,
);
/** How many entries of a user match (optionally of one game). */
export const countCollection = pgQuery<[userId: number, tcgSlug: string | null], typeof rows.count>(
  'collection/collection_count',
  rows.count,
);
/** Every entry id of a user, newest first. */
export const collectionIdsOf = pgQuery<[userId: number], typeof rows.id>('collection/collection_ids_of_user', rows.id);

const NamedVariant = z.object({ card_id: z.number().int(), variant_id: z.number().int(), finish: z.string(), print_run: z.string() });
/** The variants of cards, primary first. */
export const cardVariantsNamed = pgQuery<[cardIds: number[]], typeof NamedVariant>('collection/card_variants_named', NamedVariant);

type EntryFields = [
  variantId: number,
  quantity: number,
  condition: string,
  pricePaid: number | null,
  graded: boolean,
  gradingCompany: string | null,
  grade: number | null,
];
/** Adds cards: a new entry or more of the same one; its id. */
export const addToCollection = pgQuery<[userId: number, cardId: number, ...EntryFields], typeof rows.id>(
  'collection/collection_add',
  rows.id,
);
const StoredEntry = z.object({
  id: z.number().int(),
  card_id: z.number().int(),
  variant_id: z.number().int(),
  quantity: z.number().int(),
  condition: z.enum(CONDITIONS),
  price_paid: pgAmount.nullable(),
  graded: z.boolean(),
  grading_company: z.enum(COLLECTION_GRADERS).nullable(),
  grade: z.number().nullable(),
});
export type StoredEntry = z.infer<typeof StoredEntry>;
/** One entry of a user, locked until the transaction ends. */
export const lockEntry = pgQuery<[entryId: number, userId: number], typeof StoredEntry>('collection/collection_entry_of', StoredEntry);
/** Writes an entry whole; its id. */
export const updateEntry = pgQuery<[entryId: number, ...EntryFields], typeof rows.id>('collection/collection_update', rows.id);
/** Removes a user's entry; its id when it was theirs. */
export const deleteEntry = pgQuery<[entryId: number, userId: number], typeof rows.id>('collection/collection_delete', rows.id);

const VariantDailyLows = z.object({ variant_id: col.number, days: z.array(col.number), lows: z.array(col.number) });
/** The ungraded US market price of variants per day since a day (days counted from 1970-01-01, ascending). */
export const variantDailyLows = chQuery<{ since: string; variant_ids: number[] }, typeof VariantDailyLows>(
  'collection/collection_variant_daily_lows',
  VariantDailyLows,
);

/** Writes imported entries (parallel arrays), setting quantity and price paid of existing ones; how many. */
export const importEntries = pgQuery<
  [
    userId: number,
    cardIds: number[],
    variantIds: number[],
    quantities: number[],
    conditions: string[],
    pricesPaid: (number | null)[],
    graded: boolean[],
    gradingCompanies: (string | null)[],
    grades: (number | null)[],
  ],
  typeof rows.count
>('collection/collection_import', rows.count);

const Placed = { variant_id: z.number().int(), card_id: z.number().int(), set_id: z.number().int(), game_id: z.number().int() };
const cents = z.number().nullable();
const UngradedVariant = z.object({
  ...Placed,
  raw_price: z.number().nullable(),
  nm: z.number().int(),
  lp: z.number().int(),
  mp: z.number().int(),
  hp: z.number().int(),
  dmg: z.number().int(),
  nm_unit: cents,
  lp_unit: cents,
  mp_unit: cents,
  hp_unit: cents,
  dmg_unit: cents,
});
export type UngradedVariant = z.infer<typeof UngradedVariant>;
/** A user's ungraded cards per variant: how many per condition, the market price and unit values. */
export const ungradedByVariant = pgQuery<[userId: number, conditionFactors: string], typeof UngradedVariant>(
  'collection/collection_ungraded_by_variant',
  UngradedVariant,
);
const GradedEntry = z.object({ ...Placed, quantity: z.number().int(), value: cents });
export type GradedEntry = z.infer<typeof GradedEntry>;
/** A user's graded entries with what each is worth. */
export const gradedEntries = pgQuery<[userId: number, conditionFactors: string], typeof GradedEntry>(
  'collection/collection_graded_entries',
  GradedEntry,
);

const CatalogueName = z.object({ kind: z.enum(['card', 'set', 'game']), id: z.number().int(), name: z.string() });
/** Names of cards and sets, slugs of games. */
export const catalogueNames = pgQuery<[cardIds: number[], setIds: number[], gameIds: number[]], typeof CatalogueName>(
  'collection/catalogue_names',
  CatalogueName,
);
