// Webhook endpoints of an account (spec: Events, Webhook; Business tiers and up): register (the
// secret shown once), list, change, rotate, delete, and the delivery log. Deliveries themselves are
// ingest/events/webhookDeliveries.ts, run by Temporal workflows.
import type { Db } from '../../sql/stores/db.js';
import { DomainError, NotFound } from '../../schemas/errors.js';
import { MAX_ENDPOINTS_PER_USER, type WebhookEventType } from '../../schemas/events.js';
import { isInternalHost } from '../../ingest/events/egress.js';
import { DELIVERY_COLUMNS, ENDPOINT_COLUMNS, type WebhookDelivery, type WebhookEndpoint } from '../../ingest/events/webhookDeliveries.js';
import { newWebhookSecret, SECRET_PREFIX, type SecretBox } from '../../ingest/events/signing.js';

export type { WebhookDelivery, WebhookEndpoint };

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
  const [row] = await db.query<WebhookEndpoint>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1 AND user_id = $2`, [
    id,
    userId,
  ]);
  if (!row) throw new NotFound('Webhook endpoint');
  return row;
}

export type EndpointInput = { url: string; description?: string; events: WebhookEventType[]; card_ids: number[] };

export async function createEndpoint(
  db: Db,
  box: SecretBox,
  userId: number,
  input: EndpointInput,
): Promise<WebhookEndpoint & { secret: string }> {
  const secret = newWebhookSecret();
  return db.transaction(async (tx) => {
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const [count] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoints WHERE user_id = $1', [userId]);
    if (count!.n >= MAX_ENDPOINTS_PER_USER)
      throw new DomainError('invalid', `At most ${MAX_ENDPOINTS_PER_USER} webhook endpoints per account`);
    const [row] = await tx.query<WebhookEndpoint>(
      `INSERT INTO webhook_endpoints (user_id, url, description, secret_enc, secret_prefix, events, card_ids)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${ENDPOINT_COLUMNS}`,
      [
        userId,
        input.url,
        input.description ?? null,
        box.seal(secret),
        secret.slice(0, SECRET_PREFIX.length + 4),
        input.events,
        input.card_ids,
      ],
    );
    return { ...row!, secret };
  });
}

export async function updateEndpoint(
  db: Db,
  userId: number,
  id: number,
  patch: Partial<EndpointInput> & { is_active?: boolean },
): Promise<WebhookEndpoint> {
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
  if ((await db.query('DELETE FROM webhook_endpoints WHERE id = $1 AND user_id = $2 RETURNING id', [id, userId])).length === 0)
    throw new NotFound('Webhook endpoint');
}

export async function listDeliveries(db: Db, userId: number, endpointId: number, limit: number): Promise<WebhookDelivery[]> {
  await ownEndpoint(db, userId, endpointId);
  return db.query<WebhookDelivery>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id DESC LIMIT $2`, [
    endpointId,
    limit,
  ]);
}
