// Loads euro reference rates into ClickHouse fx_rates. A re-load of the same day replaces it
// (ReplacingMergeTree on currency and day); the dedup token drops a retried insert outright.
import type { ClickHouseClient } from '@clickhouse/client';
import { insertFxRates } from '../../sql/priceLoads.js';
import type { FxRate } from '../sources/ecbRates.js';

export async function loadFxRates(
  ch: ClickHouseClient,
  rates: FxRate[],
  batch: { id: string; ingestedAt: Date; source: string },
): Promise<number> {
  if (rates.length === 0) return 0;
  const ingestedAt = batch.ingestedAt.toISOString().replace('T', ' ').replace('Z', '');
  await insertFxRates(
    ch,
    rates.map((r) => ({ day: r.day, currency: r.currency, rate: r.rate, source: batch.source, ingested_at: ingestedAt })),
    { insert_deduplication_token: batch.id },
  );
  return rates.length;
}
