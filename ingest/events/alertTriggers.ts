// Price alerts (spec: "Price alert", "Alert"): armed until a price scrape crosses the target —
// at or below it for `below`, at or above it for `above` — then triggered exactly once: the
// UPDATE … WHERE triggered_at IS NULL decides, so concurrent runs cannot trigger one alert twice.
import type pg from 'pg';
import { utcIsoSql } from '../../sql/stores/db.js';
import type { PriceUpdate } from '../../schemas/stream.js';

export type Alert = {
  id: number;
  card_id: number;
  card_name: string;
  target_price: number;
  condition: 'below' | 'above';
  currency: string;
  is_active: boolean;
  triggered_at: string | null;
  created_at: string;
};

export const ALERT_COLUMNS = `a.id, a.card_id, c.name AS card_name, a.target_price::float8 AS target_price, a.condition, a.currency, a.is_active,
  ${utcIsoSql('a.triggered_at')} AS triggered_at, ${utcIsoSql('a.created_at')} AS created_at`;

/** The cards among `cardIds` that have an armed alert (most runs price thousands of cards, few watched). */
export async function cardsWithArmedAlerts(client: pg.PoolClient, cardIds: number[]): Promise<Set<number>> {
  if (cardIds.length === 0) return new Set();
  const { rows } = await client.query<{ card_id: number }>(
    'SELECT DISTINCT card_id FROM price_alerts WHERE is_active AND triggered_at IS NULL AND card_id = ANY ($1::int[])',
    [cardIds],
  );
  return new Set(rows.map((r) => r.card_id));
}

export type TriggeredAlert = Alert & {
  user_id: number;
  username: string;
  email: string | null;
  email_alerts: boolean;
  market_price: number;
};

/**
 * Triggers the armed alerts the new prices cross. `prices` holds each update in every currency an
 * alert may use (converted with the latest FX rates by the caller).
 */
export async function triggerCrossedAlerts(client: pg.PoolClient, prices: PriceUpdate[]): Promise<TriggeredAlert[]> {
  if (prices.length === 0) return [];
  const { rows } = await client.query<TriggeredAlert>(
    `WITH prices AS (
       SELECT DISTINCT ON (card_id, currency) card_id, price, currency
       FROM unnest($1::int[], $2::numeric[], $3::text[]) AS u (card_id, price, currency)
     ), crossed AS (
       UPDATE price_alerts a SET triggered_at = now(), triggered_price = p.price
       FROM prices p
       WHERE a.card_id = p.card_id AND a.currency = p.currency AND a.is_active AND a.triggered_at IS NULL
         AND ((a.condition = 'below' AND p.price <= a.target_price) OR (a.condition = 'above' AND p.price >= a.target_price))
       RETURNING a.*
     )
     SELECT ${ALERT_COLUMNS}, a.user_id, u.username, u.email, u.email_alerts, a.triggered_price::float8 AS market_price
     FROM crossed a JOIN cards c ON c.id = a.card_id JOIN users u ON u.id = a.user_id
     ORDER BY a.id`,
    [prices.map((p) => p.card_id), prices.map((p) => p.market_price), prices.map((p) => p.currency)],
  );
  return rows;
}
