// Price alerts (spec: "Price alert", "Alert"): armed until a price scrape crosses the target —
// at or below it for `below`, at or above it for `above` — then triggered exactly once: the
// UPDATE … WHERE triggered_at IS NULL decides (alerts_trigger_crossed.sql), so concurrent runs
// cannot trigger one alert twice.
import type pg from 'pg';
import type { PriceUpdate } from '../../schemas/stream.js';
import { cardsWithArmedAlert, triggerAlertsCrossed, type TriggeredAlertRow } from '../../sql/alerts.js';

/** The cards among `cardIds` that have an armed alert (most runs price thousands of cards, few watched). */
export async function cardsWithArmedAlerts(client: pg.PoolClient, cardIds: number[]): Promise<Set<number>> {
  if (cardIds.length === 0) return new Set();
  return new Set((await cardsWithArmedAlert(client, cardIds)).map((r) => r.card_id));
}

export type TriggeredAlert = TriggeredAlertRow;

/**
 * Triggers the armed alerts the new prices cross. `prices` holds each update in every currency an
 * alert may use (converted with the latest FX rates by the caller).
 */
export async function triggerCrossedAlerts(client: pg.PoolClient, prices: PriceUpdate[]): Promise<TriggeredAlert[]> {
  if (prices.length === 0) return [];
  return triggerAlertsCrossed(
    client,
    prices.map((p) => p.card_id),
    prices.map((p) => p.market_price),
    prices.map((p) => p.currency),
  );
}
