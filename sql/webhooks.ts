// Webhook endpoints and deliveries (spec: Events, Webhook): one typed function per query file.
// Owners read them through the views webhook_endpoint_records and webhook_delivery_records (013).
import { z } from 'zod';
import { pgQuery, pgStatement, rows } from './typedQuery.js';

const int = z.number().int();
const textOrNull = z.string().nullable();

export const WebhookEndpointRow = z.object({
  id: int,
  url: z.string(),
  description: textOrNull,
  events: z.array(z.string()),
  card_ids: z.array(int),
  secret_prefix: z.string(),
  is_active: z.boolean(),
  disabled_reason: textOrNull,
  consecutive_failures: int,
  created_at: z.string(),
});
export type WebhookEndpointRow = z.infer<typeof WebhookEndpointRow>;
export const WebhookDeliveryRow = z.object({
  id: int,
  event_id: z.string(),
  event_type: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: int,
  last_status_code: int.nullable(),
  last_error: textOrNull,
  created_at: z.string(),
  last_attempt_at: textOrNull,
  delivered_at: textOrNull,
});
export type WebhookDeliveryRow = z.infer<typeof WebhookDeliveryRow>;

/** An account's endpoints, oldest first. */
export const endpointsOf = pgQuery<[userId: number], typeof WebhookEndpointRow>(
  'webhooks/webhook_endpoints_of_account',
  WebhookEndpointRow,
);
/** One own endpoint (no row: not found or another account's). */
export const ownEndpointRow = pgQuery<[endpointId: number, userId: number], typeof WebhookEndpointRow>(
  'webhooks/webhook_endpoint_own',
  WebhookEndpointRow,
);
/** How many endpoints an account has. */
export const endpointCount = pgQuery<[userId: number], typeof rows.count>('webhooks/webhook_endpoint_count', rows.count);
/** A new endpoint; its id. */
export const insertEndpoint = pgQuery<
  [
    userId: number,
    url: string,
    description: string | null,
    sealedSecret: Buffer,
    secretPrefix: string,
    events: string[],
    cardIds: number[],
  ],
  typeof rows.id
>('webhooks/webhook_endpoint_create', rows.id);
/** Changes an own endpoint (null: keep): a row when it was the account's. */
export const updateEndpointRow = pgQuery<
  [
    endpointId: number,
    userId: number,
    url: string | null,
    description: string | null,
    events: string[] | null,
    cardIds: number[] | null,
    isActive: boolean | null,
  ],
  typeof rows.id
>('webhooks/webhook_endpoint_update', rows.id);
/** A new sealed secret for an own endpoint: a row when it was the account's. */
export const rotateEndpointSecret = pgQuery<
  [endpointId: number, userId: number, sealedSecret: Buffer, secretPrefix: string],
  typeof rows.id
>('webhooks/webhook_endpoint_rotate', rows.id);
/** Deletes an own endpoint: a row when it was the account's. */
export const deleteEndpointRow = pgQuery<[endpointId: number, userId: number], typeof rows.id>('webhooks/webhook_endpoint_delete', rows.id);
/** An endpoint's deliveries, newest first. */
export const deliveriesOf = pgQuery<[endpointId: number, limit: number], typeof WebhookDeliveryRow>(
  'webhooks/webhook_deliveries_of_endpoint',
  WebhookDeliveryRow,
);

/** Queues events for endpoints; a row per delivery actually queued. */
export const queueWebhookDeliveries = pgQuery<
  [endpointIds: number[], eventIds: string[], eventTypes: string[], events: string[]],
  typeof rows.bigId
>('webhooks/webhook_deliveries_queue', rows.bigId);
const EndpointOwner = z.object({ id: int, user_id: int });
/** Active endpoints of Business-tier accounts among these that take the event type. */
export const endpointsForEvent = pgQuery<[eventType: string, userIds: number[], tiers: string[]], typeof EndpointOwner>(
  'webhooks/webhook_endpoints_for_event',
  EndpointOwner,
);
const WatchingEndpoint = z.object({ id: int, cards: z.array(int) });
/** Active price.updated endpoints of Business-tier accounts watching any of the cards, with the cards they watch. */
export const endpointsForPriceUpdates = pgQuery<[cardIds: number[], tiers: string[]], typeof WatchingEndpoint>(
  'webhooks/webhook_endpoints_for_price_updates',
  WatchingEndpoint,
);
/** Pending deliveries whose workflow has not been started. */
export const unstartedDeliveryIds = pgQuery<[limit: number], typeof rows.bigId>('webhooks/webhook_deliveries_unstarted', rows.bigId);
/** Records that the deliveries' workflows were started. */
export const markDeliveriesStarted = pgStatement<[deliveryIds: number[]]>('webhooks/webhook_deliveries_mark_started');

const DeliveryTarget = z.object({
  // The frozen event goes out as stored: loose keeps any key it has.
  event: z.object({ id: z.string(), type: z.string(), created_at: z.string(), data: z.record(z.string(), z.unknown()) }).loose(),
  status: z.string(),
  url: z.string(),
  secret_enc: z.instanceof(Buffer),
  is_active: z.boolean(),
  endpoint_id: int,
});
/** A delivery with its frozen event and its endpoint's URL, sealed secret and state. */
export const deliveryTarget = pgQuery<[deliveryId: number], typeof DeliveryTarget>('webhooks/webhook_delivery_target', DeliveryTarget);
/** An attempt got a 2xx. */
export const markDelivered = pgStatement<[deliveryId: number, status: number | null]>('webhooks/webhook_delivery_delivered');
/** An attempt failed. */
export const markAttemptFailed = pgStatement<[deliveryId: number, status: number | null, error: string]>(
  'webhooks/webhook_delivery_attempt_failed',
);
const Disabled = z.object({ disabled: z.boolean() });
/** Every attempt failed: the delivery fails; a row telling whether its endpoint is now disabled. */
export const failWebhookDelivery = pgQuery<[deliveryId: number, disableAfter: number, reason: string], typeof Disabled>(
  'webhooks/webhook_delivery_fail',
  Disabled,
);
