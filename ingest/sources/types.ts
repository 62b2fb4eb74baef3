// What every source adapter produces: prices keyed by the upstream's own product reference, not
// yet mapped to Holo variants (that is the mapping step, through cross_refs), plus the rows it
// refused and why. Amounts stay decimal text so no float ever touches money.
export type ProductRefKind =
  'eu_marketplace_product_id' | 'us_marketplace_product_id' | 'price_guide_id' | 'mtg_card_db_id' | 'pokemontcg_id';

export type SourceRow = {
  ref: { kind: ProductRefKind; value: string };
  /** Finish in Holo's vocabulary (normal, holofoil, reverse-holofoil, foil, etched, …); null when the feed does not say. */
  finish: string | null;
  /** Print run when the feed distinguishes it (1st-edition, unlimited). */
  printRun: string | null;
  region: 'eu' | 'us' | 'jp';
  source: string;
  price_type: string;
  grading_company: string;
  grade: string;
  currency: string;
  amount: string;
  as_of: string;
  observation_id?: string;
  /**
   * How to find the card when no cross reference names it yet: the game, the set's name and the
   * collector number, as a guide that has its own ids prints them (PriceCharting). A unique match
   * is recorded as a cross reference, so later batches map by id.
   */
  hint?: { game: string; set: string; number: string };
};

export type RejectedRow = { ref: string; reason: string };

export type ParseResult = { rows: SourceRow[]; rejected: RejectedRow[] };

export class FeedFormatError extends Error {}

/**
 * A price as decimal text: numbers and strings such as "13.52" or "$1,013.52"; null and "" mean
 * "no price". Anything else (negative, not a number) throws with the reason.
 */
export function money(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim().replace(/^\$/, '').replace(/,/g, '');
  } else {
    throw new Error(`unexpected ${typeof value} as a price`);
  }
  if (!/^\d+(\.\d+)?$/.test(text)) throw new Error(`not a price: ${JSON.stringify(value)}`);
  return text;
}

/** Adds a row for a price field, or records why the field was refused. Empty prices add nothing. */
export function collect(out: ParseResult, ref: string, value: unknown, row: Omit<SourceRow, 'amount'>): void {
  try {
    const amount = money(value);
    if (amount !== null && Number(amount) > 0) out.rows.push({ ...row, amount });
  } catch (err) {
    out.rejected.push({ ref, reason: `${row.price_type || `${row.grading_company} ${row.grade}`}: ${(err as Error).message}` });
  }
}
