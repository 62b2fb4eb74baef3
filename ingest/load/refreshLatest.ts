// The latest non-outlier price of every series, materialised in PostgreSQL (variant_prices_latest)
// where card detail reads it without touching ClickHouse. Two ways in: from a batch just loaded
// (the ingestion path: no ClickHouse read at all), or rebuilt from ClickHouse's price_latest
// (demo load and repair). Either way an older day never overwrites a newer one.
import type pg from 'pg';
import type { ClickHouseClient } from '@clickhouse/client';
import { latestPricesForCards, refreshCardBestPriceRows, upsertLatestPriceRows, type LatestRow } from '../../sql/priceLoads.js';
import { seriesKey, type PricePointRow } from '../pricePoint.js';

const PAGE = 20_000;
// Two connections keep both cores of a small machine busy; a batch writes each series once, so
// its pages never touch the same rows and cannot deadlock each other.
const LANES = 2;

async function upsert(pool: pg.Pool, rows: LatestRow[]): Promise<void> {
  await upsertLatestPriceRows(
    pool,
    rows.map((r) => r.variant_id),
    rows.map((r) => r.region),
    rows.map((r) => r.source),
    rows.map((r) => r.price_type),
    rows.map((r) => r.grading_company),
    rows.map((r) => r.grade),
    rows.map((r) => r.currency),
    rows.map((r) => r.amount),
    rows.map((r) => r.as_of),
  );
}

/** Rebuilds the latest prices of the given cards (every card when empty) from ClickHouse. */
export async function refreshLatestPrices(ch: ClickHouseClient, pool: pg.Pool, cardIds: number[] = []): Promise<number> {
  let buffer: LatestRow[] = [];
  let written = 0;
  const flush = async () => {
    if (buffer.length === 0) return;
    await upsert(pool, buffer);
    written += buffer.length;
    buffer = [];
  };
  for await (const row of latestPricesForCards(ch, { card_ids: cardIds })) {
    buffer.push(row);
    if (buffer.length >= PAGE) await flush();
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
  // Every writer takes the rows in the same order, so two batches writing the same series at once
  // (days loaded side by side) wait for each other instead of deadlocking.
  const series: LatestRow[] = [...newest.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);
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
  await refreshCardBestPriceRows(pool, cardIds);
}
