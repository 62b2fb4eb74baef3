// Webhook endpoints and their deliveries (spec: Events, Webhook; Business tiers and up).
//
// A delivery is a row first (the event, frozen), then a Temporal workflow that attempts it with
// exponential backoff. Each attempt POSTs {id, type, created_at, sent_at, attempt, data}: id and
// created_at name the event (the same on every retry), sent_at and attempt the try; all of it is
// under the signature, so a receiver that rejects a stale sent_at and remembers ids is safe from
// replays. After HOLO_WEBHOOK_DISABLE_AFTER deliveries in a row fail, the endpoint is disabled.
import crypto from 'node:crypto';
import type pg from 'pg';
import { utcIsoSql, type Db } from '../core/data.js';
import { HttpError, NotFoundError } from '../http/errors.js';
import { BUSINESS_TIERS } from '../auth/tiers.js';
import { isInternalHost, postJson } from './egress.js';
import { newWebhookSecret, SECRET_PREFIX, signBody, SIGNATURE_HEADER, type SecretBox } from './signing.js';

export const WEBHOOK_EVENTS = ['price.alert.triggered', 'price.updated'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];
export const MAX_ENDPOINTS_PER_USER = 10;
export const MAX_CARDS_PER_ENDPOINT = 1000;
/** A receiver has this long to answer an attempt. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

export type WebhookEndpoint = {
  id: number; url: string; description: string | null; events: string[]; card_ids: number[]; secret_prefix: string;
  is_active: boolean; disabled_reason: string | null; consecutive_failures: number; created_at: string;
};
export type WebhookDelivery = {
  id: number; event_id: string; event_type: string; status: 'pending' | 'delivered' | 'failed'; attempts: number;
  last_status_code: number | null; last_error: string | null; created_at: string; last_attempt_at: string | null; delivered_at: string | null;
};

const ts = (col: string) => utcIsoSql(col, 'millis');
const ENDPOINT_COLUMNS = `id, url, description, events, card_ids, secret_prefix, is_active, disabled_reason, consecutive_failures, ${ts('created_at')} AS created_at`;
const DELIVERY_COLUMNS = `id::int AS id, event_id, event_type, status, attempts, last_status_code, last_error, ${ts('created_at')} AS created_at,
  ${ts('last_attempt_at')} AS last_attempt_at, ${ts('delivered_at')} AS delivered_at`;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/**
 * Where deliveries may go. Production: HTTPS to a public address only. Development and tests:
 * also plain HTTP to loopback, for a receiver on this machine.
 */
export function webhookUrlProblem(raw: string, env: 'development' | 'production' | 'test'): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a valid URL';
  }
  if (url.username || url.password) return 'credentials in the URL are not allowed';
  if (url.hash) return 'a fragment is not allowed';
  const loopback = LOOPBACK_HOSTS.has(url.hostname) || url.hostname.startsWith('127.');
  if (env === 'production') {
    if (url.protocol !== 'https:') return 'must be an https:// URL';
    if (isInternalHost(url.hostname)) return 'must be a public address';
    return null;
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && loopback) return null;
  return 'must be an https:// URL (plain http only to loopback in development)';
}

export async function listEndpoints(db: Db, userId: number): Promise<WebhookEndpoint[]> {
  return db.query<WebhookEndpoint>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE user_id = $1 ORDER BY id`, [userId]);
}

/** An own endpoint; another account's is "not found". */
export async function ownEndpoint(db: Db, userId: number, id: number): Promise<WebhookEndpoint> {
  const [row] = await db.query<WebhookEndpoint>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1 AND user_id = $2`, [id, userId]);
  if (!row) throw new NotFoundError('Webhook endpoint');
  return row;
}

export type EndpointInput = { url: string; description?: string; events: WebhookEventType[]; card_ids: number[] };

export async function createEndpoint(db: Db, box: SecretBox, userId: number, input: EndpointInput): Promise<WebhookEndpoint & { secret: string }> {
  const secret = newWebhookSecret();
  return db.transaction(async (tx) => {
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const [count] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoints WHERE user_id = $1', [userId]);
    if (count!.n >= MAX_ENDPOINTS_PER_USER) throw new HttpError(400, `At most ${MAX_ENDPOINTS_PER_USER} webhook endpoints per account`);
    const [row] = await tx.query<WebhookEndpoint>(
      `INSERT INTO webhook_endpoints (user_id, url, description, secret_enc, secret_prefix, events, card_ids)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${ENDPOINT_COLUMNS}`,
      [userId, input.url, input.description ?? null, box.seal(secret), secret.slice(0, SECRET_PREFIX.length + 4), input.events, input.card_ids],
    );
    return { ...row!, secret };
  });
}

export async function updateEndpoint(db: Db, userId: number, id: number, patch: Partial<EndpointInput> & { is_active?: boolean }): Promise<WebhookEndpoint> {
  await ownEndpoint(db, userId, id);
  // Re-enabling starts the failure count afresh.
  const [row] = await db.query<WebhookEndpoint>(
    `UPDATE webhook_endpoints SET url = coalesce($3, url), description = coalesce($4, description), events = coalesce($5, events),
       card_ids = coalesce($6, card_ids), is_active = coalesce($7, is_active),
       disabled_reason = CASE WHEN $7 THEN NULL ELSE disabled_reason END,
       consecutive_failures = CASE WHEN $7 THEN 0 ELSE consecutive_failures END
     WHERE id = $1 AND user_id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
    [id, userId, patch.url ?? null, patch.description ?? null, patch.events ?? null, patch.card_ids ?? null, patch.is_active ?? null],
  );
  return row!;
}

export async function rotateSecret(db: Db, box: SecretBox, userId: number, id: number): Promise<WebhookEndpoint & { secret: string }> {
  await ownEndpoint(db, userId, id);
  const secret = newWebhookSecret();
  const [row] = await db.query<WebhookEndpoint>(
    `UPDATE webhook_endpoints SET secret_enc = $3, secret_prefix = $4 WHERE id = $1 AND user_id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
    [id, userId, box.seal(secret), secret.slice(0, SECRET_PREFIX.length + 4)],
  );
  return { ...row!, secret };
}

export async function deleteEndpoint(db: Db, userId: number, id: number): Promise<void> {
  if ((await db.query('DELETE FROM webhook_endpoints WHERE id = $1 AND user_id = $2 RETURNING id', [id, userId])).length === 0) throw new NotFoundError('Webhook endpoint');
}

export async function listDeliveries(db: Db, userId: number, endpointId: number, limit: number): Promise<WebhookDelivery[]> {
  await ownEndpoint(db, userId, endpointId);
  return db.query<WebhookDelivery>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id DESC LIMIT $2`, [endpointId, limit]);
}

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
export async function queueDeliveries(client: pg.PoolClient | pg.Pool, rows: { endpointId: number; event: WebhookEvent }[]): Promise<number> {
  if (rows.length === 0) return 0;
  const { rowCount } = await client.query(
    `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, event)
     SELECT * FROM unnest($1::int[], $2::uuid[], $3::text[], $4::jsonb[]) ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
    [rows.map((r) => r.endpointId), rows.map((r) => r.event.id), rows.map((r) => r.event.type), rows.map((r) => JSON.stringify(r.event))],
  );
  return rowCount ?? 0;
}

/** Active endpoints of Business-tier accounts that take `type`, optionally only for these users. */
export async function endpointsFor(pool: pg.Pool | pg.PoolClient, type: WebhookEventType, userIds: number[]): Promise<{ id: number; user_id: number }[]> {
  const { rows } = await pool.query<{ id: number; user_id: number }>(
    `SELECT e.id, e.user_id FROM webhook_endpoints e JOIN users u ON u.id = e.user_id
     WHERE e.is_active AND $1 = ANY (e.events) AND e.user_id = ANY ($2::int[]) AND u.tier = ANY ($3::text[]) AND u.deleted_at IS NULL`,
    [type, userIds, BUSINESS_TIERS],
  );
  return rows;
}

/** Deliveries whose workflow has not been started yet (a failed start is picked up next time). */
export async function unstartedDeliveries(pool: pg.Pool, limit = 1000): Promise<number[]> {
  const { rows } = await pool.query<{ id: string }>('SELECT id FROM webhook_deliveries WHERE started_at IS NULL AND status = $1 ORDER BY id LIMIT $2', ['pending', limit]);
  return rows.map((r) => Number(r.id));
}

export async function markStarted(pool: pg.Pool, ids: number[]): Promise<void> {
  if (ids.length) await pool.query('UPDATE webhook_deliveries SET started_at = coalesce(started_at, now()) WHERE id = ANY ($1::bigint[])', [ids]);
}

export type AttemptResult = { outcome: 'delivered' | 'retry' | 'gone'; status: number | null; error: string | null };

/**
 * One POST of a delivery; records the attempt. A 2xx marks it delivered and resets the endpoint's
 * failure count. `publicOnly` (production) refuses receivers that resolve to internal addresses.
 */
export async function attemptDelivery(pool: pg.Pool, box: SecretBox, deliveryId: number, attempt: number, opts: { publicOnly: boolean }): Promise<AttemptResult> {
  const { rows } = await pool.query<{ event: WebhookEvent; status: string; url: string; secret_enc: Buffer; is_active: boolean; endpoint_id: number }>(
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
    error = (err as Error).name === 'AbortError' ? `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s` : String((err as Error).message).slice(0, 300);
  }
  if (error === null) {
    await pool.query(
      `WITH d AS (UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, last_status_code = $2, last_error = NULL, last_attempt_at = now(), delivered_at = now() WHERE id = $1 RETURNING endpoint_id)
       UPDATE webhook_endpoints SET consecutive_failures = 0 WHERE id IN (SELECT endpoint_id FROM d)`,
      [deliveryId, status],
    );
    return { outcome: 'delivered', status, error: null };
  }
  await pool.query('UPDATE webhook_deliveries SET attempts = attempts + 1, last_status_code = $2, last_error = $3, last_attempt_at = now() WHERE id = $1', [deliveryId, status, error]);
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
