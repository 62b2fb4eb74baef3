// Demo price history: a deterministic generator that stands in for real feeds until ingestion
// runs on Temporal. Base prices follow rarity; the generation itself runs inside ClickHouse.
import type pg from 'pg';
import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import { createDemoVariants, demoVariantSeeds, dropDemoVariants, generateDemoFxRates, generateDemoPriceHistory } from '../../sql/demo.js';

type VariantSeed = { variant_id: number; card_id: number; game: string; base_usd: number; graded: number; jp: number };

// Typical raw NM price in USD by rarity keyword; unknown rarities price like commons.
const RARITY_BASE: [RegExp, number][] = [
  [/special illustration|hyper|gold|secret|rainbow|mega hyper|fabled|enchanted|mythic/i, 60],
  [/illustration|ultra|legend|shiny|vmax|vstar|gx|ex|majestic|legendary|marvel|amazing|radiant|prism|star/i, 14],
  [/holo|super rare|rare|double/i, 2.5],
  [/uncommon/i, 0.35],
  [/common|basic|token/i, 0.15],
];

function unit(seed: number, salt: number): number {
  // Small integer hash → [0, 1): enough spread for demo base prices, fully deterministic.
  let x = (seed * 2654435761 + salt * 40503) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 2246822519) >>> 0;
  x ^= x >>> 13;
  return (x >>> 0) / 4294967296;
}

export function basePriceUsd(variantId: number, rarity: string | null, finish: string, printRun: string, setYear: number): number {
  const r = rarity ?? 'common';
  const base = RARITY_BASE.find(([re]) => re.test(r))?.[1] ?? 0.15;
  let price = base * Math.exp((unit(variantId, 1) - 0.5) * 2.2);
  if (finish !== 'normal') price *= finish === 'reverse-holofoil' ? 1.6 : 2.2;
  if (printRun === '1st-edition') price *= 4;
  if (printRun === 'shadowless') price *= 2.5;
  if (setYear > 0 && setYear < 2005) price *= 3; // vintage premium
  return Math.round(price * 100) / 100 + 0.05;
}

export type HistoryOptions = {
  days: number;
  endDate: string;
  batchId: string;
  ingestedAt: Date;
  /** Called after each chunk of variants with how many are done. */
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

/** Variants per generation step: about a tenth of the full demo, a few seconds each. */
const HISTORY_CHUNK = 5000;

export async function generateDemoHistory(pool: pg.Pool, ch: ClickHouseClient, opts: HistoryOptions): Promise<{ variants: number }> {
  const seeds: VariantSeed[] = (await demoVariantSeeds(pool)).map((r) => {
    const base = basePriceUsd(r.variant_id, r.rarity, r.finish, r.print_run, r.year ?? 0);
    return {
      variant_id: r.variant_id,
      card_id: r.card_id,
      game: r.game,
      base_usd: base,
      // Graded guides only track cards worth slabbing; Japanese prices for a share of Pokémon cards.
      graded: base >= 8 ? 1 : 0,
      jp: r.game === 'pokemon' && unit(r.variant_id, 7) < 0.3 ? 1 : 0,
    };
  });
  const params = {
    days: opts.days,
    end_date: opts.endDate,
    batch_id: opts.batchId,
    ingested_at: opts.ingestedAt.toISOString().replace('T', ' ').replace('Z', ''),
  };
  await generateDemoFxRates(ch, params);
  // In chunks of variants (every value is a function of its own variant, so chunks change
  // nothing), so that a first start can say how far it got.
  const started = Date.now();
  for (let done = 0; done < seeds.length;) {
    const chunk = seeds.slice(done, done + HISTORY_CHUNK);
    await dropDemoVariants(ch, {});
    await createDemoVariants(ch, {});
    await ch.insert({ table: 'holo.demo_variants', values: chunk, format: 'JSONEachRow' });
    await generateDemoPriceHistory(ch, params, replaySafe(`${opts.batchId}/${opts.days}d/variants-${done}`));
    done += chunk.length;
    const seconds = (Date.now() - started) / 1000;
    opts.progress?.({ done, total: seeds.length, seconds });
  }
  await dropDemoVariants(ch, {});
  return { variants: seeds.length };
}
