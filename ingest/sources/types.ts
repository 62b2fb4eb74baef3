// What every source adapter produces: prices keyed by the upstream's own product reference, not
// yet mapped to Holo variants (that is the mapping step, through cross_refs), plus the rows it
// refused and why. Amounts stay decimal text so no float ever touches money.
import { z } from 'zod';
import { DAY_RANGE } from '../../schemas/common.js';

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

/**
 * Whether a row's upstream text is written as it was read. A lone UTF-16 surrogate (what a JSON
 * "\uD800" escape decodes to) is written as U+FFFD, so references differing only there
 * ("\uD800abc", "\uDBFFabc", "\uFFFDabc") would become one and map to one card: such a row is
 * refused instead (ILL_FORMED_REASON, under its reference as escaped JSON).
 */
export function wellFormedRow(r: SourceRow): boolean {
  return (
    r.ref.value.isWellFormed() &&
    (r.finish ?? '').isWellFormed() &&
    (r.printRun ?? '').isWellFormed() &&
    (r.observation_id ?? '').isWellFormed() &&
    (r.hint === undefined || (r.hint.game.isWellFormed() && r.hint.set.isWellFormed() && r.hint.number.isWellFormed()))
  );
}
export const ILL_FORMED_REASON = 'text with a lone UTF-16 surrogate: it would be written as U+FFFD, as another reference may be';

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

/**
 * The days an upstream's own date may give a price: a calendar day (zod's ISO date, so no
 * 2026-02-30) from `earliest` (before any trading card game was sold) to `aheadDays` after today
 * in UTC, or after the run's day when that is later (a run for a day takes that day's prices, as a
 * test's mirror serves them): the day ahead allows for clock skew and for an upstream's local day
 * east of UTC. Anything else refuses its row alone, with the reason: ClickHouse's Date would fail
 * the whole staging insert on a day it cannot read (+010000-01), and silently roll over or clamp
 * one it can (2026-02-30 is 2026-03-02, 9999-12-31 is 2149-06-06, 0000-01-01 is 1970-01-01).
 */
export const UPSTREAM_DAYS = { earliest: '1990-01-01', aheadDays: 1 } as const;

export type DayRange = { first: string; last: string };

/** A calendar day, YYYY-MM-DD (zod's ISO date: no 2026-02-30); 15 times quicker than schemas' IsoDate, which the API's messages need, on the per-row paths. */
export const CalendarDay = z.iso.date();

/** The days an upstream's date may name for a run of `runDay` (see UPSTREAM_DAYS). */
export function upstreamDayRange(runDay?: string, now = Date.now()): DayRange {
  const today = new Date(now).toISOString().slice(0, 10);
  const from = runDay !== undefined && CalendarDay.safeParse(runDay).success && runDay > today ? runDay : today;
  const ahead = new Date(Date.parse(`${from}T00:00:00Z`) + UPSTREAM_DAYS.aheadDays * 86_400_000).toISOString().slice(0, 10);
  return { first: UPSTREAM_DAYS.earliest, last: ahead < DAY_RANGE.last ? ahead : DAY_RANGE.last };
}

/** Whether `day` (YYYY-MM-DD) is a calendar day within `range`. */
export function inDayRange(day: string, range: DayRange): boolean {
  return CalendarDay.safeParse(day).success && day >= range.first && day <= range.last;
}
