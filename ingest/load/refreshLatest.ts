// Copies the latest non-outlier price of every series from ClickHouse into PostgreSQL
// (variant_prices_latest), where card detail reads it without touching ClickHouse.
import type pg from 'pg';
import type { ClickHouseClient } from '@clickhouse/client';
import { sqlFile } from '../../api/core/sqlFiles.js';

type LatestRow = {
  variant_id: string;
  region: string;
  source: string;
  price_type: string;
  grading_company: string;
  grade: string;
  currency: string;
  amount: string;
  as_of: string;
};

const PAGE = 20_000;

export async function refreshLatestPrices(ch: ClickHouseClient, pool: pg.Pool, cardIds: number[] = []): Promise<number> {
  const rs = await ch.query({
    query: sqlFile('clickhouse/queries/latest_prices_for_cards.sql'),
    query_params: { card_ids: cardIds },
    format: 'JSONEachRow',
  });
  let buffer: LatestRow[] = [];
  let written = 0;
  const flush = async () => {
    if (buffer.length === 0) return;
    const rows = buffer;
    buffer = [];
    await pool.query(
      `INSERT INTO variant_prices_latest (variant_id, region, source, price_type, grading_company, grade, currency, amount, as_of)
       SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::numeric[], $9::date[])
       ON CONFLICT (variant_id, region, source, price_type, grading_company, grade) DO UPDATE
         SET currency = EXCLUDED.currency, amount = EXCLUDED.amount, as_of = EXCLUDED.as_of
         WHERE variant_prices_latest.as_of <= EXCLUDED.as_of`,
      [
        rows.map((r) => Number(r.variant_id)),
        rows.map((r) => r.region),
        rows.map((r) => r.source),
        rows.map((r) => r.price_type),
        rows.map((r) => r.grading_company),
        rows.map((r) => r.grade),
        rows.map((r) => r.currency),
        rows.map((r) => r.amount),
        rows.map((r) => r.as_of),
      ],
    );
    written += rows.length;
  };
  for await (const chunk of rs.stream<LatestRow>()) {
    for (const row of chunk) {
      buffer.push(row.json());
      if (buffer.length >= PAGE) await flush();
    }
  }
  await flush();
  return written;
}
