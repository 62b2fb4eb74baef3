// Set-based ingestion's statements (ingest/load/staged.ts, catalogueCopy.ts): a batch staged in
// ClickHouse, mapped, flagged and loaded by INSERT … SELECT, its latest prices copied to
// PostgreSQL, and the catalogue copy mapping joins. One typed function per query file.
import type { ClickHouseClient } from '@clickhouse/client';
import type pg from 'pg';
import { z } from 'zod';
import { readsLocalFiles } from './stores/clickhouseInserts.js';
import {
  chInsertTabSeparated,
  chQuery,
  chStatement,
  chTabSeparated,
  col,
  pgCopyIn,
  pgCopyOut,
  pgQuery,
  pgStatement,
} from './typedQuery.js';

// The sources stage a document through ClickHouse's file() when ClickHouse runs in this process.
export { readsLocalFiles };

type Stage = { stage: string };

const SourceRow = z.object({
  stage_id: z.string(),
  /** The row's place in the feed. */
  seq: z.number(),
  ref_kind: z.string(),
  ref_value: z.string(),
  /** Empty: the feed does not say (as print_run). */
  finish: z.string(),
  print_run: z.string(),
  region: z.string(),
  source: z.string(),
  price_type: z.string(),
  grading_company: z.string(),
  grade: z.string(),
  currency: z.string(),
  /** Decimal text exactly as parsed. */
  amount: z.string(),
  as_of: z.string(),
  observation_id: z.string(),
  /** Why the row was refused at parse; empty when it is a price. */
  refused: z.string(),
  refused_ref: z.string(),
});
export type StagedSourceRow = z.input<typeof SourceRow>;
/** Stages rows a JavaScript parser read (ingest_source_rows), TabSeparated: ingestion's hot path. */
export const insertStagedSourceRows = chInsertTabSeparated('holo.ingest_source_rows', SourceRow);

/** Stages the prices of a Scryfall bulk file at `path` on the ClickHouse host (chDB: this machine). */
export const stageScryfallBulkFile = chStatement<Stage & { seq_base: number; path: string; as_of: string }>(
  'ingestStaging/stage_scryfall_bulk_file',
);

/**
 * Stages the prices of pokemontcg.io /v2/cards pages at `path` (a file or a glob; each named
 * `<seq base>.json`) on the ClickHouse host (chDB: this machine), with the finishes and fields of
 * schemas/pokemontcg.ts as parameters.
 */
export const stagePokemontcgPages = chStatement<
  Stage & {
    path: string;
    finish_keys: string[];
    finishes: string[];
    print_runs: string[];
    tcg_fields: string[];
    tcg_types: string[];
    cm_fields: string[];
    cm_types: string[];
    cm_finishes: string[];
    /** The days a block's updatedAt may name (ingest/sources/types.ts, UPSTREAM_DAYS), YYYY-MM-DD. */
    first_day: string;
    last_day: string;
  }
>('ingestStaging/stage_pokemontcg_pages');

const PageCounts = z.object({
  documents: col.number,
  valid: col.number,
  count: col.number.nullable(),
  total_count: col.number.nullable(),
  cards: col.number,
});
/** How many documents a page file holds, whether they are valid JSON, its count and totalCount, and its cards. */
export const pokemontcgPageCounts = chQuery<{ path: string }, typeof PageCounts>('ingestStaging/pokemontcg_page_counts', PageCounts);

/** Maps a stage's rows to variants through the catalogue copy `version`, with their series outlier flag. */
export const mapStagedRows = chStatement<
  Stage & { version: number; as_of: string; window_days: number; min_history: number; mad_k: number; min_ratio: number }
>('ingestStaging/map_staged_rows');

/** Marks a stage's (variant, source) pairs that disagree with the other sources. */
export const crossSourceStaged = chStatement<Stage & { as_of: string; window_days: number; min_other_sources: number; factor: number }>(
  'ingestStaging/cross_source_staged',
);

/** Loads a stage's mapped rows into price_points as one batch. */
export const insertStagedPricePoints = chStatement<Stage & { batch: string; ingested_at: string }>('ingestStaging/insert_price_points');

/** Quarantines what a stage refused or the cross-source check marked. */
export const insertStagedRejects = chStatement<
  Stage & { batch: string; source: string; game: string; rejected_at: string; cross_source_reason: string }
>('ingestStaging/insert_rejects');

/** Drops one staging table's partition of a stage (a finished or abandoned run). */
export const dropStagePartition = chStatement<Stage & { table: 'ingest_source_rows' | 'ingest_mapped_rows' | 'ingest_cross_source' }>(
  'ingestStaging/drop_stage_partition',
);

const purgeAllocator = chStatement<Record<string, never>>('ingestStaging/release_memory');
/**
 * After a large statement: with ClickHouse in this process (chDB), the memory its allocator keeps
 * is this process's resident memory, and each step's would stay on top of the next one's; a
 * server's memory is its own business.
 */
export async function releaseEngineMemory(ch: ClickHouseClient): Promise<void> {
  if (readsLocalFiles(ch)) await purgeAllocator(ch, {});
}

/** A stage's newest loaded price per series of one lane's cards, as TabSeparated for latest_prices_staged_copy. */
export const stagedLatestPrices = chTabSeparated<Stage & { lanes: number; lane: number }>('ingestStaging/staged_latest_prices');

const MarketUpdate = z.object({ card_id: col.number, market_price: col.number, currency: z.string() });
/** A stage's market price per card, for the price_updates announcements. */
export const stagedMarketUpdates = chQuery<Stage, typeof MarketUpdate>('ingestStaging/staged_market_updates', MarketUpdate);

const Counts = z.object({
  parsed: col.number,
  rejected: col.number,
  loaded: col.number,
  flagged: col.number,
  cross_source_flagged: col.number,
});
/** What a stage came to. */
export const stagedCounts = chQuery<Stage, typeof Counts>('ingestStaging/staged_counts', Counts);

const Version = z.object({ version: col.number });
/** The catalogue versions whose ClickHouse copy is complete, newest first. */
export const catalogueCopyVersions = chQuery<Record<string, never>, typeof Version>('ingestStaging/catalogue_copy_versions', Version);
/** Records the catalogue copy `version` as complete. */
export const recordCatalogueCopy = chStatement<{ version: number }>('ingestStaging/record_catalogue_copy');
/** Drops one catalogue copy table's partition of an old version. */
export const dropCatalogueCopy = chStatement<{ table: 'catalogue_refs' | 'catalogue_variants'; version: number }>(
  'ingestStaging/drop_catalogue_copy',
);

/** Makes the transaction one read-only snapshot (its first statement): the version and the copies agree. */
export const setSnapshotTransaction = pgStatement<[]>('ingestStaging/catalogue_copy_snapshot');
/** The catalogue's mapping version (PostgreSQL). */
export const catalogueVersion = pgQuery<[], typeof Version>('ingestStaging/catalogue_version', Version);
/** The references mapping resolves, as TabSeparated rows for catalogue_refs. */
const copyCatalogueRefs = pgCopyOut('ingestStaging/catalogue_refs_copy');
/** Every variant with its card, game, printing and print run, as TabSeparated rows for catalogue_variants. */
const copyCatalogueVariants = pgCopyOut('ingestStaging/catalogue_variants_copy');
const CatalogueRef = z.object({
  version: z.number(),
  ref_kind: z.string(),
  ref_value: z.string(),
  card_id: z.number(),
  printing_id: z.number().nullable(),
});
const insertCatalogueRefs = chInsertTabSeparated('holo.catalogue_refs', CatalogueRef);
const CatalogueVariant = z.object({
  version: z.number(),
  card_id: z.number(),
  game: z.string(),
  printing_id: z.number(),
  print_run: z.string().nullable(),
  variant_id: z.number(),
  finish: z.string(),
});
const insertCatalogueVariants = chInsertTabSeparated('holo.catalogue_variants', CatalogueVariant);

/**
 * Copies the catalogue `version` (read in `client`'s snapshot) into ClickHouse: PostgreSQL's COPY
 * text is handed on as ClickHouse's TabSeparated, never parsed. Deduplication tokens: a second
 * process copying the same version at once adds nothing.
 */
export async function copyCatalogueToClickHouse(ch: ClickHouseClient, client: pg.PoolClient, version: number): Promise<void> {
  const [refs, variants] = [await copyCatalogueRefs(client), await copyCatalogueVariants(client)];
  await insertCatalogueRefs.encoded(ch, refs, { insert_deduplication_token: `catalogue:${version}:refs` });
  await insertCatalogueVariants.encoded(ch, variants, { insert_deduplication_token: `catalogue:${version}:variants` });
}

/** The transaction's temporary table of a batch's newest prices. */
export const createStagedLatestPrices = pgStatement<[]>('ingestStaging/latest_prices_staged_table');
/** Copies a batch's newest prices (TabSeparated from stagedLatestPrices) into the temporary table. */
export const copyStagedLatestPrices = pgCopyIn('ingestStaging/latest_prices_staged_copy');
/** Moves variant_prices_latest forward from the temporary table. */
export const upsertStagedLatestPrices = pgStatement<[]>('ingestStaging/latest_prices_upsert_staged');
const CardIds = z.object({ card_ids: z.array(z.number().int()).nullable() });
/** The cards of the temporary table's prices. */
export const stagedLatestPriceCards = pgQuery<[], typeof CardIds>('ingestStaging/staged_latest_price_cards', CardIds);
