// A collector's cards (issue 16 §1): one typed function per query file.
import { z } from 'zod';
import { CONDITIONS } from '../schemas/marketplace.js';
import { COLLECTION_GRADERS, CollectionEntry } from '../schemas/collection.js';
import { chQuery, col, pgQuery, rows } from './typedQuery.js';

// An entry as stored and priced: the contract's entry without what the presenter derives (the
// variant's name, the total value, the picture URL), with what it derives them from.
const EntryValueRow = CollectionEntry.omit({ variant: true, current_value: true, image_url: true }).extend({
  variant_id: z.number().int(),
  finish: z.string(),
  print_run: z.string(),
  raw_price: z.number().nullable(),
});
export type EntryValueRow = z.infer<typeof EntryValueRow>;
/** Entries with their values from the latest prices, newest first. */
export const entryValues = pgQuery<[entryIds: number[], conditionFactors: string], typeof EntryValueRow>(
  'collection_entry_values',
  EntryValueRow,
);
const PageId = z.object({ id: z.number().int(), total: z.number().int() });
/** One page of a user's entry ids (optionally of one game), with the number matching in all. */
export const collectionPageIds = pgQuery<[userId: number, tcgSlug: string | null, limit: number, offset: number], typeof PageId>(
  'collection_page_ids',
  PageId,
);
/** How many entries of a user match (optionally of one game). */
export const countCollection = pgQuery<[userId: number, tcgSlug: string | null], typeof rows.count>('collection_count', rows.count);
/** Every entry id of a user, newest first. */
export const collectionIdsOf = pgQuery<[userId: number], typeof rows.id>('collection_ids_of_user', rows.id);

const NamedVariant = z.object({ card_id: z.number().int(), variant_id: z.number().int(), finish: z.string(), print_run: z.string() });
/** The variants of cards, primary first. */
export const cardVariantsNamed = pgQuery<[cardIds: number[]], typeof NamedVariant>('card_variants_named', NamedVariant);

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
export const addToCollection = pgQuery<[userId: number, cardId: number, ...EntryFields], typeof rows.id>('collection_add', rows.id);
const StoredEntry = z.object({
  id: z.number().int(),
  card_id: z.number().int(),
  variant_id: z.number().int(),
  quantity: z.number().int(),
  condition: z.enum(CONDITIONS),
  price_paid: z.number().nullable(),
  graded: z.boolean(),
  grading_company: z.enum(COLLECTION_GRADERS).nullable(),
  grade: z.number().nullable(),
});
export type StoredEntry = z.infer<typeof StoredEntry>;
/** One entry of a user, locked until the transaction ends. */
export const lockEntry = pgQuery<[entryId: number, userId: number], typeof StoredEntry>('collection_entry_of', StoredEntry);
/** Writes an entry whole; its id. */
export const updateEntry = pgQuery<[entryId: number, ...EntryFields], typeof rows.id>('collection_update', rows.id);
/** Removes a user's entry; its id when it was theirs. */
export const deleteEntry = pgQuery<[entryId: number, userId: number], typeof rows.id>('collection_delete', rows.id);

const VariantChange = z.object({ variant_id: col.number, day_ago: col.number.nullable(), week_ago: col.number.nullable() });
/** The ungraded US market price of variants a day and a week before their newest price day. */
export const variantChanges = chQuery<{ since: string; variant_ids: number[] }, typeof VariantChange>(
  'collection_variant_changes',
  VariantChange,
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
>('collection_import', rows.count);

const VariantSum = z.object({
  variant_id: z.number().int(),
  card_id: z.number().int(),
  card_name: z.string(),
  tcg_slug: z.string(),
  cards: z.number().int(),
  value: z.number(),
  ungraded_weight: z.number(),
  raw_price: z.number().nullable(),
});
/** A user's collection summed per variant: cards, value, and the ungraded weight on the market price. */
export const collectionByVariant = pgQuery<[userId: number, conditionFactors: string], typeof VariantSum>(
  'collection_summary_by_variant',
  VariantSum,
);
