// Cross-source correlation of a range of cards: for each card, the variant most sources price,
// each source's 30-day median of it, and the market verdict over them (consensus, agreement,
// spread, who disagrees), kept in PostgreSQL for the price-intelligence reads.
import type { ClickHouseClient } from '@clickhouse/client';
import type pg from 'pg';
import { sourceMediansOfCards, upsertSourceAgreement } from '../../sql/correlation.js';
import { marketVerdict, type SourceMedian } from '../normalise/marketVerdict.js';

/** The window each source's median covers. */
export const CORRELATION_DAYS = 30;

export type RangeResult = { cards: number; disagreeing: number };

type Row = Awaited<ReturnType<typeof sourceMediansOfCards>>[number];

function groupBy<K>(rows: Row[], key: (r: Row) => K): Map<K, Row[]> {
  const groups = new Map<K, Row[]>();
  for (const r of rows) {
    const group = groups.get(key(r));
    if (group) group.push(r);
    else groups.set(key(r), [r]);
  }
  return groups;
}

/** The variant of a card that most sources price (then the most days, then the lowest id). */
function bestVariant(rows: Row[]): Row[] {
  const byVariant = groupBy(rows, (r) => r.variant_id);
  const days = (xs: Row[]) => xs.reduce((n, r) => n + r.days, 0);
  return [...byVariant.entries()].sort(([va, a], [vb, b]) => b.length - a.length || days(b) - days(a) || va - vb)[0]![1];
}

export async function correlateCardRange(
  deps: { ch: ClickHouseClient; pool: pg.Pool },
  firstCard: number,
  lastCard: number,
): Promise<RangeResult> {
  const rows = await sourceMediansOfCards(deps.ch, { first_card: firstCard, last_card: lastCard, days: CORRELATION_DAYS });
  const byCard = groupBy(rows, (r) => r.card_id);
  const out = { cardIds: [] as number[], variantIds: [] as number[], consensus: [] as number[], confidence: [] as string[] };
  const agreeing: number[] = [];
  const considered: number[] = [];
  const spread: number[] = [];
  const disagreeing: string[] = [];
  let withDisagreement = 0;
  for (const [cardId, cardRows] of byCard) {
    const picked = bestVariant(cardRows);
    const medians: SourceMedian[] = picked.map((r) => ({ source: r.source, region: r.region, median: r.median_usd, sample_size: r.days }));
    const verdict = marketVerdict(medians);
    if (!verdict) continue;
    const off = verdict.sources.filter((s) => !s.agrees).map((s) => ({ source: s.source, median_usd: s.median, delta_pct: s.delta_pct }));
    if (off.length) withDisagreement++;
    out.cardIds.push(cardId);
    out.variantIds.push(picked[0]!.variant_id);
    out.consensus.push(verdict.price);
    out.confidence.push(verdict.confidence);
    agreeing.push(verdict.agreeing_sources);
    considered.push(verdict.considered_sources);
    spread.push(verdict.spread_pct);
    disagreeing.push(JSON.stringify(off));
  }
  if (out.cardIds.length)
    await upsertSourceAgreement(
      deps.pool,
      out.cardIds,
      out.variantIds,
      out.consensus,
      out.confidence,
      agreeing,
      considered,
      spread,
      disagreeing,
    );
  return { cards: out.cardIds.length, disagreeing: withDisagreement };
}
