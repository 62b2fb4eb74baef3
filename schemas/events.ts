// Alerts, notifications, devices and webhooks (spec: "Price alert", Events, the alert and device
// rows of "Operations whose path is not given").
import { intParam, text, z, money, PG_INT_MAX } from './common.js';

export const WEBHOOK_EVENTS = ['price.alert.triggered', 'price.updated'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];
export const MAX_ENDPOINTS_PER_USER = 10;
export const MAX_CARDS_PER_ENDPOINT = 1000;
/** A receiver has this long to answer an attempt. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

// Currencies an alert may use: those the FX feed converts between.
export const ALERT_CURRENCIES = ['EUR', 'USD', 'GBP', 'JPY', 'CAD', 'AUD', 'CHF'] as const;

export const AlertOut = z
  .object({
    id: z.number().int(),
    card_id: z.number().int(),
    card_name: z.string(),
    target_price: z.number(),
    condition: z.enum(['below', 'above']),
    currency: z.string(),
    is_active: z.boolean(),
    triggered_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('PriceAlert');
export const AlertList = z.object({ items: z.array(AlertOut) }).openapi('PriceAlertList');
export const CreateAlertBody = z
  .strictObject({
    card_id: z.number().int().positive().max(PG_INT_MAX),
    target_price: money({ max: 1e9 }),
    condition: z.enum(['below', 'above']).default('below'),
    currency: z.enum(ALERT_CURRENCIES).default('EUR'),
  })
  .openapi('CreatePriceAlert');
export const AlertIdParams = z.strictObject({ alert_id: intParam({ min: 1, max: 2147483647 }) });
export const DigestQueued = z.object({ ok: z.literal(true), queued: z.number().int() }).openapi('DigestQueued');

export const NotificationOut = z
  .object({
    id: z.number().int(),
    kind: z.string(),
    title: z.string(),
    body: z.string(),
    data: z.record(z.string(), z.unknown()),
    created_at: z.string(),
    read_at: z.string().nullable(),
  })
  .openapi('Notification');
export const NotificationFeed = z.object({ items: z.array(NotificationOut), unread: z.number().int() }).openapi('NotificationFeed');
export const NotificationFeedQuery = z.strictObject({
  limit: intParam({ min: 1, max: 100 }).default(50),
  before_id: intParam({ min: 1, description: 'older than this id (the last id of the previous page)' }).optional(),
});
export const UnreadCount = z.object({ count: z.number().int() }).openapi('UnreadCount');
export const NotificationIdParams = z.strictObject({ notification_id: intParam({ min: 1 }) });
export const MarkedRead = z.object({ ok: z.literal(true), marked: z.number().int() }).openapi('MarkedRead');

export const EmailSettings = z
  .object({
    ok: z.literal(true),
    alert_emails: z.boolean().openapi({ description: 'an e-mail when an alert triggers (off until chosen)' }),
    digest_emails: z.boolean().openapi({ description: 'the daily digest by e-mail (off until chosen; digest-now always e-mails)' }),
  })
  .openapi('EmailSettings');
export const EmailSettingsBody = z
  .strictObject({ alert_emails: z.boolean().optional(), digest_emails: z.boolean().optional() })
  .openapi('EmailSettingsChange', { description: 'Either or both; an empty body changes nothing and answers the settings.' });

const base64url = (bytes: number) =>
  z
    .string()
    .length(Math.ceil((bytes * 4) / 3))
    .regex(/^[A-Za-z0-9_-]+$/, 'base64url');
// APNs tokens are hex, FCM registration tokens base64url with colons, web tokens endpoint URLs:
// printable ASCII without spaces, taken as sent (never trimmed, so the length the document states
// is the length checked).
const deviceToken = z
  .string()
  .min(8)
  .max(4096)
  .regex(/^[!-~]+$/, 'a device token is printable ASCII without spaces');
export const DeviceBody = z
  .discriminatedUnion('platform', [
    z
      .strictObject({
        platform: z.enum(['ios', 'android']),
        token: deviceToken.openapi({ description: 'the APNs or FCM device token' }),
      })
      .openapi('PushDevicePhone'),
    z
      .strictObject({
        platform: z.literal('web'),
        // One pattern (printable ASCII, no spaces): it also keeps control characters out, as text() does.
        token: z
          .string()
          .max(4096)
          .regex(/^https?:\/\/[!-~]+$/, 'a web subscription’s token is its endpoint URL')
          .openapi({ description: 'the push subscription’s endpoint URL' }),
        keys: z
          .strictObject({ p256dh: base64url(65), auth: base64url(16) })
          .openapi({ description: 'the subscription’s keys (PushSubscription.toJSON().keys)' }),
      })
      .openapi('PushDeviceWeb'),
  ])
  .openapi('PushDevice');
export const VapidKey = z
  .object({ public_key: z.string().openapi({ description: 'base64url, the applicationServerKey browsers subscribe with' }) })
  .openapi('VapidKey');
export const DeviceTokenBody = z.strictObject({ token: deviceToken }).openapi('PushDeviceToken');
export const DeviceRegistered = z.object({ ok: z.literal(true), device_id: z.number().int() }).openapi('DeviceRegistered');

const events = z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length);
// http(s) and a host at least; whether it may be used (https, public in production) is checked on
// registration, with the reason.
const webhookUrl = z
  .string()
  .max(2048)
  .regex(/^https?:\/\/[^\s/?#]+\S*$/, { message: 'must be an http(s) URL' });
const cardIds = z.array(z.number().int().positive().max(PG_INT_MAX)).max(MAX_CARDS_PER_ENDPOINT);
export const WebhookEndpointOut = z
  .object({
    id: z.number().int(),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.string()),
    card_ids: z.array(z.number().int()),
    secret_prefix: z.string().openapi({ description: 'the first characters of the secret, to tell secrets apart' }),
    is_active: z.boolean(),
    disabled_reason: z.string().nullable(),
    consecutive_failures: z.number().int(),
    created_at: z.string(),
  })
  .openapi('WebhookEndpoint');
export const WebhookEndpointList = z.object({ items: z.array(WebhookEndpointOut) }).openapi('WebhookEndpointList');
export const WebhookEndpointCreated = WebhookEndpointOut.extend({
  secret: z.string().openapi({ description: 'the signing secret: shown this once' }),
}).openapi('WebhookEndpointCreated');
export const CreateWebhookBody = z
  .strictObject({
    url: webhookUrl,
    description: text({ max: 200 }).optional(),
    events: events.default(['price.alert.triggered']),
    card_ids: cardIds.default([]).openapi({ description: 'cards whose price.updated events this endpoint receives' }),
  })
  .openapi('CreateWebhookEndpoint');
export const UpdateWebhookBody = z
  .strictObject({
    url: webhookUrl.optional(),
    description: text({ max: 200 }).optional(),
    events: events.optional(),
    card_ids: cardIds.optional(),
    is_active: z.boolean().optional(),
  })
  .openapi('UpdateWebhookEndpoint');
export const WebhookIdParams = z.strictObject({ webhook_id: intParam({ min: 1, max: 2147483647 }) });
export const WebhookDeliveryOut = z
  .object({
    id: z.number().int(),
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.number().int(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    created_at: z.string(),
    last_attempt_at: z.string().nullable(),
    delivered_at: z.string().nullable(),
  })
  .openapi('WebhookDelivery');
export const WebhookDeliveryList = z.object({ items: z.array(WebhookDeliveryOut) }).openapi('WebhookDeliveryList');
export const DeliveriesQuery = z.strictObject({ limit: intParam({ min: 1, max: 200 }).default(50) });

export const OutboxMessage = z
  .object({
    id: z.number().int(),
    to_address: z.string(),
    kind: z.string(),
    subject: z.string(),
    body_text: z.string(),
    created_at: z.string(),
    sent_at: z.string().nullable(),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
  })
  .openapi('OutboxMessage');
export const OutboxList = z.object({ smtp_configured: z.boolean(), items: z.array(OutboxMessage) }).openapi('OutboxList');
export const OutboxQuery = z.strictObject({ limit: intParam({ min: 1, max: 200 }).default(50) });
