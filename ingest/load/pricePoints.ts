// The write path for price observations held as rows (the feed pipeline stages its rows in
// ClickHouse instead: staged.ts): insert into ClickHouse with a deduplication token per batch
// chunk (a retried insert is dropped by ClickHouse), refresh the materialised latest prices of the
// batch's series in PostgreSQL, and announce the new prices epoch.
import type pg from 'pg';
import type { ClickHouseClient } from '@clickhouse/client';
import { announcePricesLanded } from '../../sql/stores/priceChannels.js';
import { insertPricePoints } from '../../sql/priceLoads.js';
import type { RedisStore } from '../../sql/stores/redis.js';
import { refreshCardBestPrices, upsertLatestPrices } from './refreshLatest.js';
import type { PricePointRow } from '../pricePoint.js';

export type { PricePointRow };

export type LoadTargets = { ch: ClickHouseClient; pool: pg.Pool; redis: RedisStore; redisPrefix: string };

export type LoadTimings = { insertMs: number; latestMs: number };

const CHUNK = 100_000;

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
    await insertPricePoints(
      ch,
      rows.slice(i, i + CHUNK).map((r) => ({
        card_id: r.card_id,
        variant_id: r.variant_id,
        game: r.game,
        region: r.region,
        source: r.source,
        price_type: r.price_type,
        grading_company: r.grading_company,
        grade: r.grade,
        currency: r.currency,
        amount: r.amount,
        as_of: r.as_of,
        observation_id: r.observation_id ?? '',
        ingested_at: ingestedAt,
        is_outlier: r.is_outlier,
        batch_id: batch.id,
      })),
      { insert_deduplication_token: `${batch.id}:${i / CHUNK}`, deduplicate_blocks_in_dependent_materialized_views: 1 },
    );
  }
}
