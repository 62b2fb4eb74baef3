// The write path for price observations held as rows (the feed pipeline stages its rows in
// ClickHouse instead: staged.ts): insert into ClickHouse with a deduplication token per batch
// chunk (a retried insert is dropped by ClickHouse), refresh the materialised latest prices of the
// batch's series in PostgreSQL, and announce the new prices epoch.
import type pg from 'pg';
import type { ClickHouseClient } from '@clickhouse/client';
import { announcePricesLanded } from '../../sql/stores/priceChannels.js';
import { insertTabSeparated, tsvField } from '../../sql/stores/clickhouse.js';
import type { RedisStore } from '../../sql/stores/redis.js';
import { refreshCardBestPrices, upsertLatestPrices } from './refreshLatest.js';
import type { PricePointRow } from '../pricePoint.js';

export type { PricePointRow };

export type LoadTargets = { ch: ClickHouseClient; pool: pg.Pool; redis: RedisStore; redisPrefix: string };

export type LoadTimings = { insertMs: number; latestMs: number };

const CHUNK = 100_000;
/** The columns of holo.price_points a load writes, in the order its TabSeparated lines carry them. */
export const PRICE_POINT_COLUMNS = [
  'card_id',
  'variant_id',
  'game',
  'region',
  'source',
  'price_type',
  'grading_company',
  'grade',
  'currency',
  'amount',
  'as_of',
  'observation_id',
  'ingested_at',
  'is_outlier',
  'batch_id',
] as const;

/** The rows as TabSeparated lines in {@link PRICE_POINT_COLUMNS} order; constant columns are escaped once. */
function encodeChunk(rows: PricePointRow[], ingestedAt: string, batchId: string): Buffer {
  const tail = `\t${tsvField(ingestedAt)}\t`;
  const batch = `\t${tsvField(batchId)}\n`;
  let text = '';
  for (const r of rows) {
    text +=
      `${r.card_id}\t${r.variant_id}\t${tsvField(r.game)}\t${r.region}\t${tsvField(r.source)}\t${tsvField(r.price_type)}\t${tsvField(r.grading_company)}\t` +
      `${tsvField(r.grade)}\t${tsvField(r.currency)}\t${r.amount}\t${r.as_of}\t${tsvField(r.observation_id ?? '')}${tail}${r.is_outlier ? 'true' : 'false'}${batch}`;
  }
  return Buffer.from(text);
}

export async function loadPricePoints(
  targets: LoadTargets,
  rows: PricePointRow[],
  batch: { id: string; ingestedAt: Date },
): Promise<{ inserted: number; cards: number; timings: LoadTimings }> {
  const cardIds = [...new Set(rows.map((r) => r.card_id))];
  // The two stores are written side by side (PostgreSQL is its own process, ClickHouse its own
  // threads). Both writes are idempotent, so a failure of either fails the load and its retry
  // repeats both; until then the latest prices may already show what the history does not yet hold.
  const [insertMs, latestMs] = await Promise.all([
    timed(() => insertRows(targets.ch, rows, batch)),
    timed(async () => {
      if (rows.length === 0) return;
      await upsertLatestPrices(targets.pool, rows);
      await refreshCardBestPrices(targets.pool, cardIds);
    }),
  ]);
  // Announced only once both stores hold the batch: cached reads built after this see it whole.
  if (rows.length) await announcePricesLanded(targets.redis, targets.redisPrefix);
  return { inserted: rows.length, cards: cardIds.length, timings: { insertMs, latestMs } };
}

async function timed(work: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function insertRows(ch: ClickHouseClient, rows: PricePointRow[], batch: { id: string; ingestedAt: Date }): Promise<void> {
  // DateTime64 text in UTC: unambiguous for ClickHouse whatever the server's time zone.
  const ingestedAt = batch.ingestedAt.toISOString().replace('T', ' ').replace('Z', '');
  for (let i = 0; i < rows.length; i += CHUNK) {
    await insertTabSeparated(ch, {
      table: 'holo.price_points',
      columns: PRICE_POINT_COLUMNS,
      body: encodeChunk(rows.slice(i, i + CHUNK), ingestedAt, batch.id),
      settings: { insert_deduplication_token: `${batch.id}:${i / CHUNK}`, deduplicate_blocks_in_dependent_materialized_views: 1 },
    });
  }
}
