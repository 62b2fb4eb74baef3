// Catalogue imports (ingest/catalogue/upsert.ts): idempotent upserts by upstream key, so ids never
// change and a re-import only updates. One typed function per query file; arrays are unnested in SQL.
import { z } from 'zod';
import { pgQuery, pgStatement, rows } from './typedQuery.js';

const int = z.number().int();
const KeyedId = z.object({ id: int, external_key: z.string() });

/** A game by slug, created or updated; its id. */
export const upsertGame = pgQuery<
  [slug: string, name: string, publisher: string | null, websiteUrl: string | null, description: string | null],
  typeof rows.id
>('catalogueWrites/catalogue_upsert_game', rows.id);

/** Sets of a game by upstream key; each id with its key. */
export const upsertSets = pgQuery<
  [
    gameId: number,
    externalKeys: string[],
    codes: string[],
    names: string[],
    series: (string | null)[],
    releaseDates: (string | null)[],
    totalCards: number[],
    printedTotals: (number | null)[],
    isPromo: boolean[],
    languages: string[],
    logoUrls: (string | null)[],
    symbolUrls: (string | null)[],
    attributes: string[],
  ],
  typeof KeyedId
>('catalogueWrites/catalogue_upsert_sets', KeyedId);

/** Cards of a game by upstream key (JSON arrays and objects as text); each id with its key. */
export const upsertCards = pgQuery<
  [
    gameId: number,
    setIds: number[],
    externalKeys: string[],
    names: string[],
    numbers: string[],
    rarities: (string | null)[],
    cardTypes: (string | null)[],
    subtypesJson: string[],
    artists: (string | null)[],
    attributesJson: string[],
    legalitiesJson: string[],
  ],
  typeof KeyedId
>('catalogueWrites/catalogue_upsert_cards', KeyedId);

/** Printings by upstream key; each id with its key. */
export const upsertPrintings = pgQuery<
  [cardIds: number[], externalKeys: string[], languages: string[], printRuns: string[], numbers: string[], isPromo: boolean[]],
  typeof KeyedId
>('catalogueWrites/catalogue_upsert_printings', KeyedId);

/** Variants by upstream key; a row per variant written. */
export const upsertVariants = pgQuery<
  [
    printingIds: number[],
    externalKeys: string[],
    finishes: string[],
    labels: string[],
    printRarities: (string | null)[],
    isEx: (boolean | null)[],
    isV: (boolean | null)[],
    imageUrls: (string | null)[],
  ],
  typeof KeyedId
>('catalogueWrites/catalogue_upsert_variants', KeyedId);

/** Variants' external ids as the upstream states them now; changes are logged with the reason. */
export const recordExternalIds = pgQuery<[variantIds: number[], kinds: string[], values: string[], reason: string], typeof rows.bigId>(
  'catalogueWrites/external_ids_record',
  rows.bigId,
);

/** Card images by (card, source, kind). */
export const upsertImages = pgStatement<
  [cardIds: number[], sources: string[], kinds: string[], urls: string[], widths: number[], heights: number[]]
>('catalogueWrites/catalogue_upsert_images');

/** Cross references of cards and printings (printing null: card-level). */
export const insertCrossRefs = pgStatement<[cardIds: number[], printingIds: (number | null)[], keys: string[], values: string[]]>(
  'catalogueWrites/catalogue_insert_cross_refs',
);

/** A game by slug, created when missing; its id. */
export const ensureGame = pgQuery<
  [slug: string, name: string, publisher: string | null, websiteUrl: string | null, description: string | null],
  typeof rows.id
>('catalogueWrites/game_ensure', rows.id);

/** Sealed products of a game by upstream key. */
export const upsertSealedProducts = pgStatement<
  [
    gameId: number,
    externalKeys: string[],
    names: string[],
    categories: string[],
    setCodes: (string | null)[],
    euProductIds: string[],
    addedAt: (string | null)[],
  ]
>('catalogueWrites/sealed_products_upsert');
