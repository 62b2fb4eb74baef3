// Webhook deliveries (spec: Events, Webhook; Business tiers and up).
//
// A delivery is a row first (the event, frozen), then a Temporal workflow that attempts it with
// exponential backoff. Each attempt POSTs {id, type, created_at, sent_at, attempt, data}: id and
// created_at name the event (the same on every retry), sent_at and attempt the try; all of it is
// under the signature, so a receiver that rejects a stale sent_at and remembers ids is safe from
// replays. After HOLO_WEBHOOK_DISABLE_AFTER deliveries in a row fail, the endpoint is disabled.
import crypto from 'node:crypto';
import type pg from 'pg';
import { utcIsoSql } from '../../sql/stores/db.js';
import { BUSINESS_TIERS } from '../../schemas/tiers.js';
import { postJson } from './egress.js';
import { ATTEMPT_TIMEOUT_MS, type WebhookEventType } from '../../schemas/events.js';
import { signBody, SIGNATURE_HEADER, type SecretBox } from './signing.js';

export type WebhookEndpoint = {
  id: number;
  url: string;
  description: string | null;
  events: string[];
  card_ids: number[];
  secret_prefix: string;
  is_active: boolean;
  disabled_reason: string | null;
  consecutive_failures: number;
  created_at: string;
};
export type WebhookDelivery = {
  id: number;
  event_id: string;
  event_type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  last_attempt_at: string | null;
  delivered_at: string | null;
};

const ts = (col: string) => utcIsoSql(col, 'millis');
export const ENDPOINT_COLUMNS = `id, url, description, events, card_ids, secret_prefix, is_active, disabled_reason, consecutive_failures, ${ts('created_at')} AS created_at`;
export const DELIVERY_COLUMNS = `id::int AS id, event_id, event_type, status, attempts, last_status_code, last_error, ${ts('created_at')} AS created_at,
  ${ts('last_attempt_at')} AS last_attempt_at, ${ts('delivered_at')} AS delivered_at`;

export type WebhookEvent = { id: string; type: WebhookEventType; created_at: string; data: Record<string, unknown> };

/** An event id that is the same every time the same fact is dispatched (retried runs add nothing). */
export function eventId(fact: string): string {
  const h = crypto.createHash('sha256').update(fact).digest();
  h[6] = (h[6]! & 0x0f) | 0x50; // version 5-style, name-based
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Queues events for endpoints in one statement; an endpoint that already has an event gets nothing new. */
export async function queueDeliveries(
  client: pg.PoolClient | pg.Pool,
  rows: { endpointId: number; event: WebhookEvent }[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const { rowCount } = await client.query(
    `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, event)
     SELECT * FROM unnest($1::int[], $2::uuid[], $3::text[], $4::jsonb[]) ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
    [rows.map((r) => r.endpointId), rows.map((r) => r.event.id), rows.map((r) => r.event.type), rows.map((r) => JSON.stringify(r.event))],
  );
  return rowCount ?? 0;
}

/** Active endpoints of Business-tier accounts that take `type`, optionally only for these users. */
export async function endpointsFor(
  pool: pg.Pool | pg.PoolClient,
  type: WebhookEventType,
  userIds: number[],
): Promise<{ id: number; user_id: number }[]> {
  const { rows } = await pool.query<{ id: number; user_id: number }>(
    `SELECT e.id, e.user_id FROM webhook_endpoints e JOIN users u ON u.id = e.user_id
     WHERE e.is_active AND $1 = ANY (e.events) AND e.user_id = ANY ($2::int[]) AND u.tier = ANY ($3::text[]) AND u.deleted_at IS NULL`,
    [type, userIds, BUSINESS_TIERS],
  );
  return rows;
}

/** Deliveries whose workflow has not been started yet (a failed start is picked up next time). */
export async function unstartedDeliveries(pool: pg.Pool, limit = 1000): Promise<number[]> {
  const { rows } = await pool.query<{ id: string }>(
    'SELECT id FROM webhook_deliveries WHERE started_at IS NULL AND status = $1 ORDER BY id LIMIT $2',
    ['pending', limit],
  );
  return rows.map((r) => Number(r.id));
}

export async function markStarted(pool: pg.Pool, ids: number[]): Promise<void> {
  if (ids.length)
    await pool.query('UPDATE webhook_deliveries SET started_at = coalesce(started_at, now()) WHERE id = ANY ($1::bigint[])', [ids]);
}

export type AttemptResult = { outcome: 'delivered' | 'retry' | 'gone'; status: number | null; error: string | null };

/**
 * One POST of a delivery; records the attempt. A 2xx marks it delivered and resets the endpoint's
 * failure count. `publicOnly` (production) refuses receivers that resolve to internal addresses.
 */
export async function attemptDelivery(
  pool: pg.Pool,
  box: SecretBox,
  deliveryId: number,
  attempt: number,
  opts: { publicOnly: boolean },
): Promise<AttemptResult> {
  const { rows } = await pool.query<{
    event: WebhookEvent;
    status: string;
    url: string;
    secret_enc: Buffer;
    is_active: boolean;
    endpoint_id: number;
  }>(
    `SELECT d.event, d.status, e.url, e.secret_enc, e.is_active, e.id AS endpoint_id
     FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE d.id = $1`,
    [deliveryId],
  );
  const row = rows[0];
  if (!row || !row.is_active) return { outcome: 'gone', status: null, error: row ? 'endpoint disabled' : 'endpoint deleted' };
  if (row.status === 'delivered') return { outcome: 'delivered', status: null, error: null };
  const body = JSON.stringify({ ...row.event, sent_at: new Date().toISOString(), attempt });
  let status: number | null = null;
  let error: string | null = null;
  try {
    const res = await postJson(
      row.url,
      {
        'Content-Type': 'application/json',
        'User-Agent': 'Holo-Webhooks/1.0',
        [SIGNATURE_HEADER]: signBody(box.open(row.secret_enc), body),
        'X-Holo-Event-Id': row.event.id,
        'X-Holo-Event-Type': row.event.type,
        'X-Holo-Delivery-Attempt': String(attempt),
      },
      body,
      { timeoutMs: ATTEMPT_TIMEOUT_MS, publicOnly: opts.publicOnly },
    );
    status = res.status;
    if (status < 200 || status > 299) error = `HTTP ${status}`;
  } catch (err) {
    error =
      (err as Error).name === 'AbortError'
        ? `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`
        : String((err as Error).message).slice(0, 300);
  }
  if (error === null) {
    await pool.query(
      `WITH d AS (UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, last_status_code = $2, last_error = NULL, last_attempt_at = now(), delivered_at = now() WHERE id = $1 RETURNING endpoint_id)
       UPDATE webhook_endpoints SET consecutive_failures = 0 WHERE id IN (SELECT endpoint_id FROM d)`,
      [deliveryId, status],
    );
    return { outcome: 'delivered', status, error: null };
  }
  await pool.query(
    'UPDATE webhook_deliveries SET attempts = attempts + 1, last_status_code = $2, last_error = $3, last_attempt_at = now() WHERE id = $1',
    [deliveryId, status, error],
  );
  return { outcome: 'retry', status, error };
}

/** Every attempt failed: the delivery is failed, and the endpoint disabled after `disableAfter` in a row. */
export async function failDelivery(pool: pg.Pool, deliveryId: number, disableAfter: number): Promise<{ disabled: boolean }> {
  const { rows } = await pool.query<{ disabled: boolean }>(
    `WITH d AS (UPDATE webhook_deliveries SET status = 'failed' WHERE id = $1 AND status = 'pending' RETURNING endpoint_id)
     UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1,
       is_active = CASE WHEN consecutive_failures + 1 >= $2 THEN false ELSE is_active END,
       disabled_reason = CASE WHEN consecutive_failures + 1 >= $2 THEN $3 ELSE disabled_reason END
     WHERE id IN (SELECT endpoint_id FROM d) RETURNING NOT is_active AS disabled`,
    [deliveryId, disableAfter, `disabled after ${disableAfter} failed deliveries in a row`],
  );
  return { disabled: rows[0]?.disabled ?? false };
}
