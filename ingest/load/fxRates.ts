// Loads euro reference rates into ClickHouse fx_rates. A re-load of the same day replaces it
// (ReplacingMergeTree on currency and day); the dedup token drops a retried insert outright.
import type { ClickHouseClient } from '@clickhouse/client';
import { insertTabSeparated, tsvField } from '../../sql/stores/clickhouse.js';
import type { FxRate } from '../sources/ecbRates.js';

export async function loadFxRates(
  ch: ClickHouseClient,
  rates: FxRate[],
  batch: { id: string; ingestedAt: Date; source: string },
): Promise<number> {
  if (rates.length === 0) return 0;
  const ingestedAt = batch.ingestedAt.toISOString().replace('T', ' ').replace('Z', '');
  await insertTabSeparated(ch, {
    table: 'holo.fx_rates',
    columns: ['day', 'currency', 'rate', 'source', 'ingested_at'],
    body: Buffer.from(
      rates.map((r) => `${r.day}\t${tsvField(r.currency)}\t${r.rate}\t${tsvField(batch.source)}\t${ingestedAt}\n`).join(''),
    ),
    settings: { insert_deduplication_token: batch.id },
  });
  return rates.length;
}
