// The daily ungraded US market price of the collection's variants, as the summary's 24 h and 7 d
// changes and the analytics' daily value read it. It is market data, the same for every collector,
// so it is kept in this process: a variant is read from ClickHouse over a year once a day, and
// when new prices land (a new epoch) the last days of every variant kept are read again, in one
// query, before collectors ask. A collector's figures cost a ClickHouse query only for variants
// nobody asked for today.
import type { Analytics } from '../../sql/stores/analytics.js';
import * as q from '../../sql/collection.js';
import type { Cache } from '../cache.js';

const DAY_MS = 86_400_000;
/** The longest period the analytics show. */
export const DAILY_DAYS = 365;
/** Days read before the period, so that its first day carries a price forward from before it. */
const LEAD_DAYS = 30;
/** Days read again when new prices land: a load writes today's and late yesterday's prices. */
const TAIL_DAYS = 3;
/** Variants kept at most (~3.2 KB each, ~80 MB in all); past it the memory starts again. */
const CAPACITY = 25_000;

/**
 * A variant's daily lowest US market price, dense and carried forward: `prices[i]` is the newest
 * price at or before day `first + i` (days since 1970-01-01), NaN before its first; the array ends
 * on its newest price day. Carried once here, so that the readers' loops are plain sums.
 */
export type DailyLows = { first: number; prices: Float64Array };

const dayNumber = (ms: number) => Math.floor(ms / DAY_MS);
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

export class VariantDailyLows {
  private day = -1;
  private epoch = '';
  private readonly known = new Map<number, DailyLows>();
  /** Variants read since the epoch began. */
  private readonly current = new Set<number>();

  /** The tails of every kept variant being read again after a landing. */
  private refreshing: Promise<unknown> | null = null;

  constructor(
    private readonly analytics: Analytics,
    private readonly epochs: Pick<Cache, 'epoch' | 'onEpoch'>,
  ) {
    epochs.onEpoch(() => {
      const refresh: Promise<unknown> = this.of([...this.known.keys()], { waitForRefresh: false })
        .catch(() => undefined)
        .finally(() => {
          if (this.refreshing === refresh) this.refreshing = null;
        });
      this.refreshing = refresh;
    });
  }

  async of(variantIds: number[], opts = { waitForRefresh: true }): Promise<Map<number, DailyLows>> {
    if (opts.waitForRefresh && this.refreshing) await this.refreshing;
    const today = dayNumber(Date.now());
    // Once a day the history is read whole again: it catches backfilled days, and bounds the arrays.
    if (today !== this.day || this.known.size > CAPACITY) {
      this.known.clear();
      this.current.clear();
      this.day = today;
    }
    if (this.epoch !== this.epochs.epoch()) {
      this.current.clear();
      this.epoch = this.epochs.epoch();
    }
    const missing = variantIds.filter((id) => !this.known.has(id));
    const stale = variantIds.filter((id) => this.known.has(id) && !this.current.has(id));
    const epoch = this.epoch;
    const [whole, tails] = await Promise.all([this.read(missing, today - DAILY_DAYS - LEAD_DAYS), this.read(stale, today - TAIL_DAYS + 1)]);
    const found = new Map<number, DailyLows>();
    for (const id of missing) found.set(id, merged({ first: today - DAILY_DAYS - LEAD_DAYS, prices: new Float64Array(0) }, whole.get(id)));
    for (const id of stale) found.set(id, merged(this.known.get(id)!, tails.get(id), today - TAIL_DAYS + 1));
    // Prices that landed while ClickHouse answered belong to the next epoch: not kept.
    if (epoch === this.epochs.epoch() && today === this.day)
      for (const [id, lows] of found) {
        this.known.set(id, lows);
        this.current.add(id);
      }
    return new Map(variantIds.map((id) => [id, found.get(id) ?? this.known.get(id)!]));
  }

  private async read(variantIds: number[], since: number): Promise<Map<number, { days: number[]; lows: number[] }>> {
    if (variantIds.length === 0) return new Map();
    const rows = await q.variantDailyLows(this.analytics, { since: dateOf(since), variant_ids: variantIds });
    return new Map(rows.map((r) => [r.variant_id, r]));
  }
}

/** `series` with the days read (from `since` on, replacing what it had for them), carried forward. */
function merged(series: DailyLows, read: { days: number[]; lows: number[] } | undefined, since = series.first): DailyLows {
  const keep = Math.max(0, Math.min(since - series.first, series.prices.length));
  const last = read?.days.length ? read.days[read.days.length - 1]! : -1;
  const length = Math.max(series.prices.length, last - series.first + 1, 0);
  const prices = new Float64Array(length).fill(Number.NaN);
  prices.set(series.prices.subarray(0, keep));
  read?.days.forEach((day, i) => {
    if (day >= series.first) prices[day - series.first] = read.lows[i]!;
  });
  for (let i = Math.max(keep, 1); i < length; i++) if (Number.isNaN(prices[i]!)) prices[i] = prices[i - 1]!;
  return { first: series.first, prices };
}

/** A series' prices (the newest at or before) a day and a week before its newest day. */
export function pricesBefore(series: DailyLows): { day_ago: number | null; week_ago: number | null } {
  const { prices } = series;
  const at = (i: number) => (i >= 0 && !Number.isNaN(prices[i]!) ? prices[i]! : null);
  const newest = prices.length - 1;
  return { day_ago: at(newest - 1), week_ago: at(newest - 7) };
}
