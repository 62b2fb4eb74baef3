// Demo history for sealed products, generated inside ClickHouse from each product's real guide
// value (sql/clickhouse/queries/demo/generate_sealed_history.sql).
import type pg from 'pg';
import type { ClickHouseClient } from '@clickhouse/client';
import { createDemoSealed, dropDemoSealed, generateDemoSealedHistory, insertDemoSealed, sealedProductsPricedInEu } from '../../sql/demo.js';
import { sealedGuideValues } from '../catalogue/sealed.js';

export async function generateSealedHistory(
  pool: pg.Pool,
  ch: ClickHouseClient,
  dataDir: string,
  opts: { days: number; endDate: string; batchId: string; ingestedAt: Date },
): Promise<number> {
  const guide = await sealedGuideValues(dataDir).catch(() => new Map<string, number>());
  const products = (await sealedProductsPricedInEu(pool)).filter((p) => guide.has(p.eu));
  if (products.length === 0) return 0;
  await dropDemoSealed(ch, {});
  await createDemoSealed(ch, {});
  await insertDemoSealed(
    ch,
    products.map((p) => ({ product_id: p.id, game: p.game, base_eur: guide.get(p.eu)! })),
  );
  await generateDemoSealedHistory(ch, {
    days: opts.days,
    end_date: opts.endDate,
    batch_id: opts.batchId,
    ingested_at: opts.ingestedAt.toISOString().replace('T', ' ').replace('Z', ''),
  });
  await dropDemoSealed(ch, {});
  return products.length;
}
