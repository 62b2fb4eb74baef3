// The one write path for price observations: insert into ClickHouse with a deduplication token
// per batch chunk (a retried insert is dropped by ClickHouse), refresh the materialised latest
// prices of the touched cards in PostgreSQL, and announce the new prices epoch.
import type pg from 'pg';
import type { ClickHouseClient } from '@clickhouse/client';
import { announcePricesLanded } from '../../api/core/cache.js';
import type { RedisStore } from '../../api/core/stores/redis.js';
import { refreshLatestPrices } from './refreshLatest.js';

export type PricePointRow = {
  card_id: number;
  variant_id: number;
  game: string;
  region: 'eu' | 'us' | 'jp';
  source: string;
  price_type: string; // '' for graded rows
  grading_company: string; // 'raw' when ungraded
  grade: string; // '' when ungraded
  currency: string;
  amount: string; // decimal text, kept exact
  as_of: string; // YYYY-MM-DD
  observation_id?: string;
  is_outlier: boolean;
};

export type LoadTargets = { ch: ClickHouseClient; pool: pg.Pool; redis: RedisStore; redisPrefix: string };

const CHUNK = 50_000;

export async function loadPricePoints(
  targets: LoadTargets,
  rows: PricePointRow[],
  batch: { id: string; ingestedAt: Date },
): Promise<{ inserted: number; cards: number }> {
  // DateTime64 text in UTC: unambiguous for ClickHouse whatever the server's time zone.
  const ingestedAt = batch.ingestedAt.toISOString().replace('T', ' ').replace('Z', '');
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK).map((r) => ({ ...r, observation_id: r.observation_id ?? '', ingested_at: ingestedAt, batch_id: batch.id }));
    await targets.ch.insert({
      table: 'holo.price_points',
      values: chunk,
      format: 'JSONEachRow',
      clickhouse_settings: {
        insert_deduplication_token: `${batch.id}:${i / CHUNK}`,
        deduplicate_blocks_in_dependent_materialized_views: 1,
        date_time_input_format: 'best_effort',
      },
    });
  }
  const cardIds = [...new Set(rows.map((r) => r.card_id))];
  if (cardIds.length) {
    await refreshLatestPrices(targets.ch, targets.pool, cardIds);
    await announcePricesLanded(targets.redis, targets.redisPrefix);
  }
  return { inserted: rows.length, cards: cardIds.length };
}
