// Demo history for sealed products, generated inside ClickHouse from each product's real guide
// value (sql/clickhouse/demo/generate_sealed_history.sql).
import type pg from 'pg';
import type { ClickHouseClient } from '@clickhouse/client';
import { sqlFile } from '../../sql/sqlFile.js';
import { sealedGuideValues } from '../catalogue/sealed.js';

export async function generateSealedHistory(
  pool: pg.Pool,
  ch: ClickHouseClient,
  dataDir: string,
  opts: { days: number; endDate: string; batchId: string; ingestedAt: Date },
): Promise<number> {
  const guide = await sealedGuideValues(dataDir).catch(() => new Map<string, number>());
  const products = (
    await pool.query<{ id: number; game: string; eu: string }>(
      `SELECT p.id, g.slug AS game, p.eu_marketplace_product_id AS eu FROM sealed_products p JOIN games g ON g.id = p.game_id WHERE p.eu_marketplace_product_id IS NOT NULL`,
    )
  ).rows.filter((p) => guide.has(p.eu));
  if (products.length === 0) return 0;
  await ch.command({ query: 'DROP TABLE IF EXISTS holo.demo_sealed' });
  await ch.command({
    query:
      'CREATE TABLE holo.demo_sealed (product_id UInt32, game LowCardinality(String), base_eur Float64) ENGINE = MergeTree ORDER BY product_id',
  });
  await ch.insert({
    table: 'holo.demo_sealed',
    values: products.map((p) => ({ product_id: p.id, game: p.game, base_eur: guide.get(p.eu)! })),
    format: 'JSONEachRow',
  });
  await ch.command({
    query: sqlFile('clickhouse/demo/generate_sealed_history.sql'),
    query_params: {
      days: opts.days,
      end_date: opts.endDate,
      batch_id: opts.batchId,
      ingested_at: opts.ingestedAt.toISOString().replace('T', ' ').replace('Z', ''),
    },
  });
  await ch.command({ query: 'DROP TABLE IF EXISTS holo.demo_sealed' });
  return products.length;
}
