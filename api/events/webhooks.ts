// Webhook endpoints of an account (spec: Events, Webhook; Business tiers and up): register (the
// secret shown once), list, change, rotate, delete, and the delivery log. Deliveries themselves are
// ingest/events/webhookDeliveries.ts, run by Temporal workflows.
import type { Db } from '../../sql/stores/db.js';
import { DomainError, NotFound } from '../../schemas/errors.js';
import { lockAccount } from '../../sql/alerts.js';
import { MAX_ENDPOINTS_PER_USER, type WebhookEventType } from '../../schemas/events.js';
import { isInternalHost } from '../../ingest/events/egress.js';
import * as q from '../../sql/webhooks.js';
import { newWebhookSecret, SECRET_PREFIX, type SecretBox } from '../../ingest/events/signing.js';

export type WebhookEndpoint = q.WebhookEndpointRow;
export type WebhookDelivery = q.WebhookDeliveryRow;

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
  return q.endpointsOf(db, userId);
}

/** An own endpoint; another account's is "not found". */
export async function ownEndpoint(db: Db, userId: number, id: number): Promise<WebhookEndpoint> {
  const [row] = await q.ownEndpointRow(db, id, userId);
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
    await lockAccount(tx, userId);
    const [count] = await q.endpointCount(tx, userId);
    if (count!.n >= MAX_ENDPOINTS_PER_USER)
      throw new DomainError('conflict', `At most ${MAX_ENDPOINTS_PER_USER} webhook endpoints per account`);
    const [created] = await q.insertEndpoint(
      tx,
      userId,
      input.url,
      input.description ?? null,
      box.seal(secret),
      secret.slice(0, SECRET_PREFIX.length + 4),
      input.events,
      input.card_ids,
    );
    return { ...(await ownEndpoint(tx, userId, created!.id)), secret };
  });
}

export async function updateEndpoint(
  db: Db,
  userId: number,
  id: number,
  patch: Partial<EndpointInput> & { is_active?: boolean },
): Promise<WebhookEndpoint> {
  // The update is scoped to the caller's rows: no row back is another account's, or none at all.
  // Re-enabling starts the failure count afresh (webhook_endpoint_update.sql).
  const updated = await q.updateEndpointRow(
    db,
    id,
    userId,
    patch.url ?? null,
    patch.description ?? null,
    patch.events ?? null,
    patch.card_ids ?? null,
    patch.is_active ?? null,
  );
  if (updated.length === 0) throw new NotFound('Webhook endpoint');
  return ownEndpoint(db, userId, id);
}

export async function rotateSecret(db: Db, box: SecretBox, userId: number, id: number): Promise<WebhookEndpoint & { secret: string }> {
  const secret = newWebhookSecret();
  const rotated = await q.rotateEndpointSecret(db, id, userId, box.seal(secret), secret.slice(0, SECRET_PREFIX.length + 4));
  if (rotated.length === 0) throw new NotFound('Webhook endpoint');
  return { ...(await ownEndpoint(db, userId, id)), secret };
}

export async function deleteEndpoint(db: Db, userId: number, id: number): Promise<void> {
  if ((await q.deleteEndpointRow(db, id, userId)).length === 0) throw new NotFound('Webhook endpoint');
}

export async function listDeliveries(db: Db, userId: number, endpointId: number, limit: number): Promise<WebhookDelivery[]> {
  await ownEndpoint(db, userId, endpointId);
  return q.deliveriesOf(db, endpointId, limit);
}
