// Webhook deliveries (spec: Events, Webhook; Business tiers and up).
//
// A delivery is a row first (the event, frozen), then a Temporal workflow that attempts it with
// exponential backoff. Each attempt POSTs {id, type, created_at, sent_at, attempt, data}: id and
// created_at name the event (the same on every retry), sent_at and attempt the try; all of it is
// under the signature, so a receiver that rejects a stale sent_at and remembers ids is safe from
// replays. After HOLO_WEBHOOK_DISABLE_AFTER deliveries in a row fail, the endpoint is disabled.
import crypto from 'node:crypto';
import type pg from 'pg';
import * as q from '../../sql/webhooks.js';
import { BUSINESS_TIERS } from '../../schemas/tiers.js';
import { postJson } from './egress.js';
import { ATTEMPT_TIMEOUT_MS, type WebhookEventType } from '../../schemas/events.js';
import { signBody, SIGNATURE_HEADER, type SecretBox } from './signing.js';

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
  const queued = await q.queueWebhookDeliveries(
    client,
    rows.map((r) => r.endpointId),
    rows.map((r) => r.event.id),
    rows.map((r) => r.event.type),
    rows.map((r) => JSON.stringify(r.event)),
  );
  return queued.length;
}

/** Active endpoints of Business-tier accounts that take `type`, optionally only for these users. */
export async function endpointsFor(
  pool: pg.Pool | pg.PoolClient,
  type: WebhookEventType,
  userIds: number[],
): Promise<{ id: number; user_id: number }[]> {
  return q.endpointsForEvent(pool, type, userIds, BUSINESS_TIERS);
}

/** Deliveries whose workflow has not been started yet (a failed start is picked up next time). */
export async function unstartedDeliveries(pool: pg.Pool, limit = 1000): Promise<number[]> {
  return (await q.unstartedDeliveryIds(pool, limit)).map((r) => r.id);
}

export async function markStarted(pool: pg.Pool, ids: number[]): Promise<void> {
  if (ids.length) await q.markDeliveriesStarted(pool, ids);
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
  const [row] = await q.deliveryTarget(pool, deliveryId);
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
    await q.markDelivered(pool, deliveryId, status);
    return { outcome: 'delivered', status, error: null };
  }
  await q.markAttemptFailed(pool, deliveryId, status, error);
  return { outcome: 'retry', status, error };
}

/** Every attempt failed: the delivery is failed, and the endpoint disabled after `disableAfter` in a row. */
export async function failDelivery(pool: pg.Pool, deliveryId: number, disableAfter: number): Promise<{ disabled: boolean }> {
  const [row] = await q.failWebhookDelivery(pool, deliveryId, disableAfter, `disabled after ${disableAfter} failed deliveries in a row`);
  return { disabled: row?.disabled ?? false };
}
