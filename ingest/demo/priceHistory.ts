// Demo price history: the past of every series the demo's feeds quote, from the same price model
// (ingest/demoMarket/), generated inside ClickHouse so a year of history takes minutes, not hours.
import type pg from 'pg';
import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import {
  createDemoSeries,
  dropDemoSeries,
  generateDemoFxRates,
  generateDemoPriceHistory,
  insertDemoSeries,
  type DemoSeriesInsert,
} from '../../sql/demo.js';
import { MODEL_EPOCH } from '../demoMarket/priceModel.js';
import { FEED_PLANS, loadedSeries, type Planned } from '../demoMarket/quotePlan.js';
import { feedPairs } from '../upstreams/registry.js';

export type HistoryOptions = {
  days: number;
  endDate: string;
  batchId: string;
  ingestedAt: Date;
  /** Called after each step with how many series are done. */
  progress?: (p: { done: number; total: number; seconds: number }) => void;
};

/**
 * Settings that make a replayed generation step insert nothing twice: an interrupted first start
 * generates the same rows again. One thread makes the step's blocks the same blocks every time, so
 * ClickHouse drops each block whose deduplication token (this step's, plus the block's index) it
 * has already stored, in price_points and in the views it feeds. Its blocks must be the same
 * blocks: with several threads the token of block i could name other rows and drop new data.
 */
export const replaySafe = (token: string): ClickHouseSettings => ({
  insert_deduplication_token: token,
  insert_deduplicate: 1,
  deduplicate_blocks_in_dependent_materialized_views: 1,
  max_threads: 1,
  max_insert_threads: '1',
});

/** Series per generation step: about a tenth of the full demo's, several seconds each. */
const HISTORY_CHUNK = 40_000;

// The staging table has the movement's columns beside the series' own.
const stagingRow = ({ variant, key, quote: { movement, ...series } }: Planned): DemoSeriesInsert => ({
  variant_id: variant.variant_id,
  card_id: variant.card_id,
  game: variant.game,
  region: key.region,
  source: key.source,
  price_type: key.price_type,
  grading_company: key.grading_company,
  grade: key.grade,
  currency: key.currency,
  scale: series.scale,
  seed: series.seed,
  lag: series.lag,
  noise_width: series.noise_width,
  auction: series.auction,
  ...movement,
});

/** Every series the demo's feeds load, in a fixed order (the replay tokens depend on it). */
export async function demoSeries(pool: pg.Pool): Promise<Planned[]> {
  let series: Planned[] = [];
  for (const { source, game } of feedPairs()) series = series.concat(loadedSeries(await FEED_PLANS[source]!(pool, game)));
  return series;
}

export async function generateDemoHistory(
  pool: pg.Pool,
  ch: ClickHouseClient,
  opts: HistoryOptions,
): Promise<{ series: number; variants: number }> {
  const series = await demoSeries(pool);
  const params = {
    days: opts.days,
    end_date: opts.endDate,
    batch_id: opts.batchId,
    ingested_at: opts.ingestedAt.toISOString().replace('T', ' ').replace('Z', ''),
    epoch: MODEL_EPOCH,
  };
  await generateDemoFxRates(ch, params);
  // In steps (every value is a function of its own series, so steps change nothing), so that a
  // first start can say how far it got.
  const started = Date.now();
  for (let done = 0; done < series.length;) {
    const chunk = series.slice(done, done + HISTORY_CHUNK);
    await dropDemoSeries(ch, {});
    await createDemoSeries(ch, {});
    await insertDemoSeries(ch, chunk.map(stagingRow));
    await generateDemoPriceHistory(ch, params, replaySafe(`${opts.batchId}/${opts.days}d/series-${done}`));
    done += chunk.length;
    opts.progress?.({ done, total: series.length, seconds: (Date.now() - started) / 1000 });
  }
  await dropDemoSeries(ch, {});
  return { series: series.length, variants: new Set(series.map((p) => p.variant.variant_id)).size };
}
