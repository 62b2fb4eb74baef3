// A batch staged in ClickHouse and taken through the pipeline there, set based: its rows are
// mapped to variants by joining the catalogue copy, flagged by the outlier and cross-source rules
// in SQL, loaded into price_points by INSERT … SELECT and quarantined likewise; its newest price per
// series goes to PostgreSQL as one COPY and one upsert. Node moves bytes: no row becomes a
// JavaScript object between the parser (or, for the largest documents, ClickHouse's own input
// format) and the stores, and no id list travels as a query parameter.
import crypto from 'node:crypto';
import type pg from 'pg';
import type { ClickHouseClient } from '@clickhouse/client';
import { announcePricesLanded } from '../../sql/stores/priceChannels.js';
import {
  copyStagedLatestPrices,
  createStagedLatestPrices,
  crossSourceStaged,
  dropStagePartition,
  insertStagedPricePoints,
  insertStagedRejects,
  insertStagedSourceRows,
  mapStagedRows,
  releaseEngineMemory,
  stagedCounts,
  stagedLatestPriceCards,
  stagedLatestPrices,
  stagedMarketUpdates,
  upsertStagedLatestPrices,
  type StagedSourceRow,
} from '../../sql/ingestStaging.js';
import { refreshCardBestPriceRows } from '../../sql/priceLoads.js';
import { pgTransaction } from '../../sql/stores/db.js';
import type { PriceUpdate } from '../../schemas/stream.js';
import { CROSS_SOURCE_REASON, CROSS_SOURCE_RULE } from '../normalise/crossSource.js';
import { OUTLIER_RULE } from '../normalise/outliers.js';
import { ILL_FORMED_REASON, wellFormedRow, type ParseResult } from '../sources/types.js';
import type { StageTarget } from '../upstreams/types.js';
import { catalogueCopy } from './catalogueCopy.js';
import type { LoadTargets } from './pricePoints.js';
import { settleAll } from '../../sql/runtime/settleAll.js';

/** A new stage: the run's own partition of the staging tables. */
export const newStageId = (): string => crypto.randomUUID();

/**
 * Stages what a JavaScript parser read: its rows and its refusals, in order from `stage.seqBase`.
 * Returns how many seq numbers it used.
 */
export async function stageParsedRows(stage: Omit<StageTarget, 'spool'>, parsed: ParseResult): Promise<number> {
  const rows: StagedSourceRow[] = [];
  const used = sourceRows(stage.id, stage.seqBase, parsed, rows);
  await insertStagedSourceRows(stage.ch, rows);
  return used;
}

/**
 * Rows waiting to be staged are inserted once there are this many (~4 MiB of text), or sooner once
 * their text reaches STAGE_INSERT_CHARS: an insert per document cost ~8 ms and a part through chDB,
 * ~2.4 s of every eBay scrape (a small document per watched card, ~300). The text bound holds
 * memory when an upstream sends long values (a refusal repeats what it refused).
 */
const STAGE_INSERT_ROWS = 25_000;
const STAGE_INSERT_CHARS = 4 * 1024 * 1024;
/** A staged row's text besides its upstream's variable-length values: ids, prices, dates, tabs. */
const STAGED_ROW_FIXED_CHARS = 128;
const textOf = (r: StagedSourceRow) =>
  STAGED_ROW_FIXED_CHARS +
  r.ref_value.length +
  r.finish.length +
  r.print_run.length +
  r.observation_id.length +
  r.refused.length +
  r.refused_ref.length;

export type StagedRows = {
  /** What a parser read of one document, its seq numbers from `seqBase`. */
  add(seqBase: number, parsed: ParseResult): Promise<void>;
  /** Inserts what is waiting: before anything reads the stage. */
  flush(): Promise<void>;
};

/** Stages what JavaScript parsers read of a feed's documents, several documents an insert. */
export function stagedRows(ch: ClickHouseClient, stageId: string): StagedRows {
  let waiting: StagedSourceRow[] = [];
  let waitingChars = 0;
  const flush = async () => {
    if (!waiting.length) return;
    const rows = waiting;
    waiting = [];
    waitingChars = 0;
    await insertStagedSourceRows(ch, rows);
  };
  return {
    async add(seqBase, parsed) {
      const from = waiting.length;
      sourceRows(stageId, seqBase, parsed, waiting);
      for (let i = from; i < waiting.length; i++) waitingChars += textOf(waiting[i]!);
      if (waiting.length >= STAGE_INSERT_ROWS || waitingChars >= STAGE_INSERT_CHARS) await flush();
    },
    flush,
  };
}

/**
 * Appends a parse's rows, then its refusals, to `out` as staged rows numbered from `seqBase`; how
 * many it numbered. A row whose text would not be written as read is refused (wellFormedRow).
 */
function sourceRows(stage_id: string, seqBase: number, parsed: ParseResult, out: StagedSourceRow[]): number {
  let seq = seqBase;
  for (const r of parsed.rows)
    if (!wellFormedRow(r))
      out.push({ stage_id, seq: seq++, ...NOT_A_PRICE, refused: ILL_FORMED_REASON, refused_ref: JSON.stringify(r.ref.value) });
    else
      out.push({
        stage_id,
        seq: seq++,
        ref_kind: r.ref.kind,
        ref_value: r.ref.value,
        finish: r.finish ?? '',
        print_run: r.printRun ?? '',
        region: r.region,
        source: r.source,
        price_type: r.price_type,
        grading_company: r.grading_company,
        grade: r.grade,
        currency: r.currency,
        amount: r.amount,
        as_of: r.as_of,
        observation_id: r.observation_id ?? '',
        refused: '',
        refused_ref: '',
      });
  for (const r of parsed.rejected)
    out.push({
      stage_id,
      seq: seq++,
      ...NOT_A_PRICE,
      refused: r.reason,
      refused_ref: r.ref,
    });
  return seq - seqBase;
}

/** The price fields of a refusal's row: empty, as_of the epoch. */
const NOT_A_PRICE = {
  ref_kind: '',
  ref_value: '',
  finish: '',
  print_run: '',
  region: '',
  source: '',
  price_type: '',
  grading_company: '',
  grade: '',
  currency: '',
  amount: '',
  as_of: '1970-01-01',
  observation_id: '',
} as const;

export type StagedBatch = { stage: string; batchId: string; source: string; game: string; asOf: string; ingestedAt: Date };

/** DateTime64 text in UTC: unambiguous for ClickHouse whatever the server's time zone. */
const chTime = (d: Date) => d.toISOString().replace('T', ' ').replace('Z', '');

/** Maps the stage's rows to variants (refusing what maps to none) and flags outliers of their own series. */
export async function mapStaged(ch: ClickHouseClient, pool: pg.Pool, b: StagedBatch): Promise<void> {
  const version = await catalogueCopy(ch, pool);
  await mapStagedRows(ch, {
    stage: b.stage,
    version,
    as_of: b.asOf,
    window_days: OUTLIER_RULE.windowDays,
    min_history: OUTLIER_RULE.minHistory,
    mad_k: OUTLIER_RULE.madK,
    min_ratio: OUTLIER_RULE.minRatio,
  });
  await releaseEngineMemory(ch);
}

/** Marks the stage's (variant, source) pairs that disagree with the other sources. */
export async function flagStagedCrossSource(ch: ClickHouseClient, b: StagedBatch): Promise<void> {
  await crossSourceStaged(ch, {
    stage: b.stage,
    as_of: b.asOf,
    window_days: CROSS_SOURCE_RULE.windowDays,
    min_other_sources: CROSS_SOURCE_RULE.minOtherSources,
    factor: CROSS_SOURCE_RULE.factor,
  });
  await releaseEngineMemory(ch);
}

export type StagedLoad = {
  parsed: number;
  rejected: number;
  loaded: number;
  flagged: number;
  crossSourceFlagged: number;
  timings: { insertMs: number; latestMs: number };
};

/**
 * Loads the stage as batch `b.batchId`: price_points and the quarantine in ClickHouse, beside the
 * latest prices in PostgreSQL, then announces the new prices epoch. Both writes are idempotent
 * (deduplication token, ReplacingMergeTree; an upsert that never moves a series back), so a
 * retried batch repeats both without doubling.
 */
export async function loadStaged(
  targets: LoadTargets,
  b: StagedBatch,
  progress: (step: string) => void = () => undefined,
): Promise<StagedLoad> {
  const [insertMs, latestMs] = await settleAll([
    timed(async () => {
      await insertStagedPricePoints(
        targets.ch,
        { stage: b.stage, batch: b.batchId, ingested_at: chTime(b.ingestedAt) },
        { insert_deduplication_token: `${b.batchId}:points`, deduplicate_blocks_in_dependent_materialized_views: 1 },
      );
      progress('loading (price points inserted)');
      await insertStagedRejects(targets.ch, {
        stage: b.stage,
        batch: b.batchId,
        source: b.source,
        game: b.game,
        rejected_at: chTime(b.ingestedAt),
        cross_source_reason: CROSS_SOURCE_REASON,
      });
      await releaseEngineMemory(targets.ch);
    }),
    timed(() => moveLatestPrices(targets.ch, targets.pool, b.stage, progress)),
  ]);
  const [counts] = await stagedCounts(targets.ch, { stage: b.stage });
  const c = counts ?? { parsed: 0, rejected: 0, loaded: 0, flagged: 0, cross_source_flagged: 0 };
  // Announced only once both stores hold the batch: cached reads built after this see it whole.
  if (c.loaded) await announcePricesLanded(targets.redis, targets.redisPrefix);
  return {
    parsed: c.parsed,
    rejected: c.rejected,
    loaded: c.loaded,
    flagged: c.flagged,
    crossSourceFlagged: c.cross_source_flagged,
    timings: { insertMs, latestMs },
  };
}

// Two connections keep both cores of a small machine busy. A lane holds whole cards (card_id
// modulo), so the lanes never write the same latest price or reference price; each takes its rows
// in series order and its cards in card order, so batches writing the same series wait for each
// other instead of deadlocking.
const LANES = 2;

/**
 * The stage's newest price per series, copied into PostgreSQL as ClickHouse wrote it (one COPY
 * per lane), moves variant_prices_latest forward (only series whose value changed are rewritten),
 * then the reference price of its cards.
 */
async function moveLatestPrices(ch: ClickHouseClient, pool: pg.Pool, stage: string, progress: (step: string) => void): Promise<void> {
  await settleAll(Array.from({ length: LANES }, (_, lane) => moveLatestPricesLane(ch, pool, stage, lane, progress)));
}

// Each part is a sign of life (a heartbeat): on a busy machine a lane runs for tens of seconds.
async function moveLatestPricesLane(
  ch: ClickHouseClient,
  pool: pg.Pool,
  stage: string,
  lane: number,
  progress: (step: string) => void,
): Promise<void> {
  const rows = await stagedLatestPrices(ch, { stage, lanes: LANES, lane });
  if (rows.length === 0) return;
  await pgTransaction(pool, async (client) => {
    await createStagedLatestPrices(client);
    await copyStagedLatestPrices(client, rows);
    progress(`loading (latest prices copied, lane ${lane + 1} of ${LANES})`);
    await upsertStagedLatestPrices(client);
    progress(`loading (latest prices moved, lane ${lane + 1} of ${LANES})`);
    const [{ card_ids } = { card_ids: null }] = await stagedLatestPriceCards(client);
    if (card_ids?.length) await refreshCardBestPriceRows(client, card_ids);
  });
}

/** The stage's market price per card, for the price_updates announcements. */
export async function stagedUpdates(ch: ClickHouseClient, stage: string): Promise<PriceUpdate[]> {
  return stagedMarketUpdates(ch, { stage });
}

/** Drops the stage's rows: the run is over (a crashed run's rows expire by TTL). */
export async function dropStage(ch: ClickHouseClient, stage: string): Promise<void> {
  await settleAll(
    (['ingest_source_rows', 'ingest_mapped_rows', 'ingest_cross_source'] as const).map((table) => dropStagePartition(ch, { stage, table })),
  );
}

async function timed(work: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}
