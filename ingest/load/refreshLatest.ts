// The latest non-outlier price of every series, materialised in PostgreSQL (variant_prices_latest)
// where card detail reads it without touching ClickHouse. Two ways in: from a batch just loaded
// (the ingestion path: no ClickHouse read at all), or rebuilt from ClickHouse's price_latest
// (demo load and repair). Either way an older day never overwrites a newer one.
import type pg from 'pg';
import type { ClickHouseClient } from '@clickhouse/client';
import { sqlFile } from '../../sql/sqlFile.js';
import { seriesKey, type PricePointRow } from '../pricePoint.js';

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
// Two connections keep both cores of a small machine busy; a batch writes each series once, so
// its pages never touch the same rows and cannot deadlock each other.
const LANES = 2;

async function upsert(pool: pg.Pool, rows: LatestRow[]): Promise<void> {
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
}

/** Rebuilds the latest prices of the given cards (every card when empty) from ClickHouse. */
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
    await upsert(pool, buffer);
    written += buffer.length;
    buffer = [];
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

/**
 * Moves the latest prices forward with a batch's rows: per series its newest non-outlier row.
 * Returns the number of series written.
 */
export async function upsertLatestPrices(pool: pg.Pool, rows: PricePointRow[]): Promise<number> {
  const newest = new Map<string, PricePointRow>();
  for (const r of rows) {
    if (r.is_outlier) continue;
    const key = seriesKey(r);
    const seen = newest.get(key);
    if (!seen || seen.as_of <= r.as_of) newest.set(key, r);
  }
  const series = [...newest.values()].map((r): LatestRow => ({ ...r, variant_id: String(r.variant_id) }));
  const pages: LatestRow[][] = [];
  for (let i = 0; i < series.length; i += PAGE) pages.push(series.slice(i, i + PAGE));
  await Promise.all(
    Array.from({ length: LANES }, async () => {
      for (let page = pages.shift(); page; page = pages.shift()) await upsert(pool, page);
    }),
  );
  return series.length;
}

/** Moves card_best_prices (the one reference price per card) forward; every card when null. */
export async function refreshCardBestPrices(pool: pg.Pool, cardIds: number[] | null): Promise<void> {
  await pool.query(sqlFile('postgres/queries/refresh_card_best_prices.sql'), [cardIds]);
}
