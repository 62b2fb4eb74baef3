// Maps adapter rows to Holo variants through cross_refs (or the catalogue's upstream card id),
// choosing the variant by finish and print run. Rows that name no known product, or a finish the
// card does not have, are refused with the reason: nothing is guessed. The pipeline maps in
// ClickHouse with the same rule (sql/clickhouse/queries/ingestStaging/map_staged_rows.sql) and only links hinted
// references here; mapToVariants is the rule in JavaScript, the reference the SQL is tested against.
import type pg from 'pg';
import { seriesKey, type PricePointRow } from '../pricePoint.js';
import { wellFormedRow, type RejectedRow, type SourceRow } from '../sources/types.js';
import {
  cardsByHints,
  cardsByPokemontcgId,
  crossRefHits,
  linkCrossRefs,
  variantsOfCards,
  type RefHit,
  type VariantRow,
} from '../../sql/priceMapping.js';

const FOILS = new Set(['foil', 'holofoil', 'rainbow-foil', 'cold-foil', 'gold-cold-foil', 'etched']);

/** The card's variant a row stands for, or null. */
export function chooseVariant<V extends Pick<VariantRow, 'finish' | 'print_run'>>(
  candidates: V[],
  finish: string | null,
  printRun: string | null,
): V | null {
  let pool = printRun ? candidates.filter((v) => v.print_run === printRun) : candidates;
  if (!printRun) {
    // Without a print run the feed prices the common printing: unlimited when the card has one.
    const unlimited = pool.filter((v) => v.print_run === 'unlimited');
    if (unlimited.length) pool = unlimited;
  }
  if (finish === null) return pool.find((v) => v.finish !== 'reverse-holofoil') ?? null;
  const exact = pool.find((v) => v.finish === finish);
  if (exact) return exact;
  // A generic "foil" twin (Cardmarket, Scryfall) is the card's one foil finish, when it has exactly one.
  if (finish === 'foil') {
    const foils = pool.filter((v) => FOILS.has(v.finish));
    return foils.length === 1 ? foils[0]! : null;
  }
  return null;
}

/**
 * Links references no cross_ref knows yet by the rows' hints (game, set name, collector number):
 * a unique match is stored as a cross reference, printing-agnostic, and used from then on.
 */
async function linkByHint(pool: pg.Pool, rows: SourceRow[], known: Set<string>): Promise<RefHit[]> {
  const wanted = new Map<string, { kind: string; value: string; game: string; set: string; number: string }>();
  for (const r of rows) {
    const key = `${r.ref.kind}:${r.ref.value}`;
    if (r.hint && !known.has(key) && !wanted.has(key)) wanted.set(key, { kind: r.ref.kind, value: r.ref.value, ...r.hint });
  }
  if (wanted.size === 0) return [];
  const list = [...wanted.values()];
  const matches = await cardsByHints(
    pool,
    list.map((w) => w.game),
    list.map((w) => w.set),
    list.map((w) => w.number),
  );
  const byWanted = new Map<number, number[]>();
  for (const m of matches) byWanted.set(Number(m.i), [...(byWanted.get(Number(m.i)) ?? []), m.card_id]);
  const links: RefHit[] = [];
  for (const [i, cards] of byWanted) {
    const w = list[i - 1]!;
    if (cards.length === 1) links.push({ ref_kind: w.kind, ref_value: w.value, card_id: cards[0]!, printing_id: null });
  }
  if (links.length)
    await linkCrossRefs(
      pool,
      links.map((l) => l.card_id),
      links.map((l) => l.ref_kind),
      links.map((l) => l.ref_value),
    );
  return links;
}

/** The catalogue's hits for the rows' references (cross_refs, or the catalogue's pokemontcg.io ids). */
async function refHits(pool: pg.Pool, rows: SourceRow[]): Promise<RefHit[]> {
  const byKind = new Map<string, Set<string>>();
  for (const r of rows) {
    const set = byKind.get(r.ref.kind) ?? new Set<string>();
    set.add(r.ref.value);
    byKind.set(r.ref.kind, set);
  }
  const hits: RefHit[] = [];
  for (const [kind, values] of byKind) {
    const list = [...values];
    hits.push(
      ...(kind === 'pokemontcg_id'
        ? await cardsByPokemontcgId(
            pool,
            list.map((v) => `pokemontcg:${v}`),
          )
        : await crossRefHits(pool, kind, list)),
    );
  }
  return hits;
}

/**
 * Links the hinted rows' references that no cross reference names yet (a guide that prints set
 * names and numbers: PriceCharting), before the batch is mapped.
 */
export async function linkHintedRefs(pool: pg.Pool, rows: SourceRow[]): Promise<void> {
  // (A row whose text would not be written as read is refused when staged: it links nothing.)
  const hinted = rows.filter((r) => r.hint && wellFormedRow(r));
  if (hinted.length === 0) return;
  const hits = await refHits(pool, hinted);
  await linkByHint(pool, hinted, new Set(hits.map((h) => `${h.ref_kind}:${h.ref_value}`)));
}

export async function mapToVariants(pool: pg.Pool, rows: SourceRow[]): Promise<{ points: PricePointRow[]; rejected: RejectedRow[] }> {
  const hits = await refHits(pool, rows);
  hits.push(...(await linkByHint(pool, rows, new Set(hits.map((h) => `${h.ref_kind}:${h.ref_value}`)))));
  const cardIds = [...new Set(hits.map((h) => h.card_id))];
  const variants = await variantsOfCards(pool, cardIds);
  const variantsByCard = new Map<number, VariantRow[]>();
  for (const v of variants) variantsByCard.set(v.card_id, [...(variantsByCard.get(v.card_id) ?? []), v]);
  const refIndex = new Map<string, RefHit[]>();
  for (const h of hits) {
    const key = `${h.ref_kind}:${h.ref_value}`;
    refIndex.set(key, [...(refIndex.get(key) ?? []), h]);
  }
  const points: PricePointRow[] = [];
  const rejected: RejectedRow[] = [];
  for (const r of rows) {
    const refs = refIndex.get(`${r.ref.kind}:${r.ref.value}`);
    if (!refs) {
      rejected.push({ ref: `${r.ref.kind}:${r.ref.value}`, reason: 'no catalogue card has this reference' });
      continue;
    }
    const cards = new Set(refs.map((h) => h.card_id));
    if (cards.size > 1) {
      rejected.push({ ref: `${r.ref.kind}:${r.ref.value}`, reason: 'reference names several cards' });
      continue;
    }
    const printings = new Set(refs.map((h) => h.printing_id).filter((p): p is number => p !== null));
    const candidates = (variantsByCard.get(refs[0]!.card_id) ?? []).filter((v) => printings.size === 0 || printings.has(v.printing_id));
    const chosen = chooseVariant(candidates, r.finish, r.printRun);
    if (!chosen) {
      rejected.push({
        ref: `${r.ref.kind}:${r.ref.value}`,
        reason: `card has no ${r.printRun ?? ''} ${r.finish ?? 'default'} variant`.replace(/\s+/g, ' '),
      });
      continue;
    }
    points.push({
      card_id: chosen.card_id,
      variant_id: chosen.variant_id,
      game: chosen.game,
      region: r.region,
      source: r.source,
      price_type: r.price_type,
      grading_company: r.grading_company,
      grade: r.grade,
      currency: r.currency,
      amount: r.amount,
      as_of: r.as_of,
      observation_id: r.observation_id,
      is_outlier: false,
    });
  }
  return dropCollisions(points, rejected);
}

// Two upstream products that land on the same variant and series on the same day would overwrite
// each other in ClickHouse (same key); which one is right is unknowable, so neither is loaded.
function dropCollisions(points: PricePointRow[], rejected: RejectedRow[]): { points: PricePointRow[]; rejected: RejectedRow[] } {
  const key = (p: PricePointRow) => `${seriesKey(p)}|${p.as_of}|${p.observation_id ?? ''}`;
  const counts = new Map<string, number>();
  for (const p of points) counts.set(key(p), (counts.get(key(p)) ?? 0) + 1);
  if (counts.size === points.length) return { points, rejected };
  const kept: PricePointRow[] = [];
  for (const p of points) {
    if (counts.get(key(p)) === 1) kept.push(p);
    else
      rejected.push({
        ref: `variant:${p.variant_id}`,
        reason: `several products price the same variant (${p.price_type || `${p.grading_company} ${p.grade}`})`,
      });
  }
  return { points: kept, rejected };
}
