// Cross-source sanity: a feed's market value of a variant more than CROSS_SOURCE_RULE.factor away
// from the median of the other sources' values (in USD) is a wrong mapping or a broken upstream,
// not a market move (marketplaces sit within about ±15 % of each other). Every row of that source
// and variant in the batch is flagged as an outlier: kept, excluded from every read, and listed in
// the quarantine with the reason, so a systematic mix-up shows as a spike of flags for the feed.
import type { ClickHouseClient } from '@clickhouse/client';
import { latestFxRates } from '../../sql/market.js';
import { crossSourceConsensus } from '../../sql/priceLoads.js';
import type { PricePointRow } from '../pricePoint.js';
import type { RejectedRow } from '../sources/types.js';

export const CROSS_SOURCE_RULE = {
  /** How far from the others' median a value may be, either way. */
  factor: 3,
  /** Other sources needed for a consensus: with one, which of two is wrong is unknowable. */
  minOtherSources: 2,
  /** How old another source's value may be. */
  windowDays: 7,
  /** The series that state a market value, comparable across sources. */
  priceTypes: ['market', 'trend', 'raw_us'],
} as const;

export const CROSS_SOURCE_REASON = `cross-source outlier (kept, flagged): more than ${CROSS_SOURCE_RULE.factor}x from the other sources' median`;

const isMarketValue = (p: PricePointRow) =>
  p.grading_company === 'raw' && (CROSS_SOURCE_RULE.priceTypes as readonly string[]).includes(p.price_type);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** What the other sources said of the batch's variants lately, and the exchange rates to compare them in USD. */
export type CrossSourceEvidence = {
  history: { variant_id: number; source: string; usd: number }[];
  usdPerUnit: Map<string, number>;
};

/** Reads the evidence for the batch's market values (nothing when it has none). */
export async function crossSourceEvidence(ch: ClickHouseClient, points: PricePointRow[], asOf: string): Promise<CrossSourceEvidence> {
  const checked = points.filter(isMarketValue);
  if (checked.length === 0) return { history: [], usdPerUnit: new Map() };
  const [history, rates] = await Promise.all([
    crossSourceConsensus(ch, {
      card_ids: [...new Set(checked.map((p) => p.card_id))],
      variant_ids: [...new Set(checked.map((p) => p.variant_id))],
      as_of: asOf,
      window_days: CROSS_SOURCE_RULE.windowDays,
    }),
    latestFxRates(ch, { currencies: [...new Set(checked.map((p) => p.currency))] }),
  ]);
  const usdPerUnit = new Map(rates.map((r) => [r.currency, Number(r.usd_per_unit)]));
  usdPerUnit.set('USD', 1);
  return { history, usdPerUnit };
}

/**
 * Flags the batch's rows whose source disagrees with the others. Rows the series' own outlier
 * check flagged are judged too (a wrong mapping stays an outlier of its own series for good, and
 * must still show here), but are not taken as another source's word, so this runs after
 * flagOutliers. Returns the rows of the disagreeing source-variant pairs, how many of them were
 * not flagged before, and one quarantine entry per pair.
 */
export function flagCrossSourceOutliers(
  points: PricePointRow[],
  { history, usdPerUnit }: CrossSourceEvidence,
): { rows: number; newlyFlagged: number; rejects: RejectedRow[] } {
  const checked = points.filter(isMarketValue);
  if (checked.length === 0) return { rows: 0, newlyFlagged: 0, rejects: [] };
  // Per variant, each source's value: the batch's own rows replace what history says of their source.
  const values = new Map<number, Map<string, number[]>>();
  const add = (variant: number, source: string, usd: number) => {
    const bySource = values.get(variant) ?? new Map<string, number[]>();
    values.set(variant, bySource);
    bySource.set(source, [...(bySource.get(source) ?? []), usd]);
  };
  const usdOf = (p: PricePointRow) => Number(p.amount) * (usdPerUnit.get(p.currency) ?? NaN);
  const inBatch = new Set(checked.map((p) => `${p.variant_id}|${p.source}`));
  for (const h of history) if (!inBatch.has(`${h.variant_id}|${h.source}`)) add(h.variant_id, h.source, h.usd);
  for (const p of checked) if (!p.is_outlier && Number.isFinite(usdOf(p))) add(p.variant_id, p.source, usdOf(p));

  const wrong = new Map<string, string>();
  for (const p of checked) {
    const usd = usdOf(p);
    const others = [...(values.get(p.variant_id) ?? new Map<string, number[]>())].filter(([source]) => source !== p.source);
    if (!Number.isFinite(usd) || others.length < CROSS_SOURCE_RULE.minOtherSources) continue;
    const consensus = median(others.map(([, v]) => median(v)));
    const ratio = usd / consensus;
    if (ratio > CROSS_SOURCE_RULE.factor || ratio < 1 / CROSS_SOURCE_RULE.factor)
      wrong.set(
        `${p.variant_id}|${p.source}`,
        `variant:${p.variant_id} ${p.source} ${p.price_type} ${p.amount} ${p.currency} vs ${consensus.toFixed(2)} USD (${ratio.toFixed(2)}x)`,
      );
  }
  if (wrong.size === 0) return { rows: 0, newlyFlagged: 0, rejects: [] };
  let rows = 0;
  let newlyFlagged = 0;
  for (const p of points)
    if (wrong.has(`${p.variant_id}|${p.source}`)) {
      rows++;
      if (!p.is_outlier) newlyFlagged++;
      p.is_outlier = true;
    }
  return { rows, newlyFlagged, rejects: [...wrong.values()].map((ref) => ({ ref, reason: CROSS_SOURCE_REASON })) };
}
