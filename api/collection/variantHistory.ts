// The ungraded US market price of variants a day and a week before their newest price day, as the
// collection summary's changes need it: read from ClickHouse once per variant and prices epoch,
// then kept in this process (it is market data, the same for every collector), so a collector's
// summary costs a ClickHouse query only for variants no summary asked for since prices landed.
import type { Analytics } from '../../sql/stores/analytics.js';
import * as q from '../../sql/collection.js';

/** How far back the query looks for a variant's price a week before its newest day. */
const WINDOW_DAYS = 21;
/** Variants kept at most; past it the memory starts again (every variant of a large catalogue fits). */
const CAPACITY = 1_000_000;

export type PricesBefore = { day_ago: number | null; week_ago: number | null };

export class VariantPriceHistory {
  private epoch = '';
  private readonly known = new Map<number, PricesBefore>();

  constructor(
    private readonly analytics: Analytics,
    private readonly currentEpoch: () => string,
  ) {}

  async pricesBefore(variantIds: number[]): Promise<Map<number, PricesBefore>> {
    if (this.epoch !== this.currentEpoch() || this.known.size > CAPACITY) {
      this.known.clear();
      this.epoch = this.currentEpoch();
    }
    const missing = variantIds.filter((id) => !this.known.has(id));
    if (missing.length) {
      const epoch = this.epoch;
      const since = new Date(Date.now() - WINDOW_DAYS * 86_400_000).toISOString().slice(0, 10);
      const read = await q.variantChanges(this.analytics, { since, variant_ids: missing });
      const found = new Map(read.map((r) => [r.variant_id, { day_ago: r.day_ago, week_ago: r.week_ago }]));
      // Prices that landed while ClickHouse answered belong to the next epoch: not kept.
      if (epoch === this.currentEpoch()) for (const id of missing) this.known.set(id, found.get(id) ?? { day_ago: null, week_ago: null });
      return new Map(variantIds.map((id) => [id, this.known.get(id) ?? found.get(id) ?? { day_ago: null, week_ago: null }]));
    }
    return new Map(variantIds.map((id) => [id, this.known.get(id)!]));
  }
}
