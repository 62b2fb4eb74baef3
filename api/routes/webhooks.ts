// Webhook endpoints through the API (spec: Events, Webhook; Business tiers and up). Paths are
// ours: /api/webhooks, /api/webhooks/{webhook_id}, …/rotate-secret, …/deliveries.
import type { AppDeps } from '../deps.js';
import { ValidationError } from '../http/errors.js';
import { defineRoute } from '../http/route.js';
import { ATTEMPT_TIMEOUT_MS } from '../../schemas/events.js';
import {
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  ownEndpoint,
  rotateSecret,
  updateEndpoint,
  webhookUrlProblem,
} from '../events/webhooks.js';
import {
  CreateWebhookBody,
  DeliveriesQuery,
  UpdateWebhookBody,
  WebhookDeliveryList,
  WebhookEndpointCreated,
  WebhookEndpointList,
  WebhookEndpointOut,
  WebhookIdParams,
} from '../../schemas/events.js';
import { Ok } from '../../schemas/auth.js';

const tags = ['webhooks'];
const access = 'business+' as const;

export const webhookRoutes = (deps: AppDeps) => {
  const { db } = deps;
  const checkUrl = (url: string | undefined) => {
    const problem = url === undefined ? null : webhookUrlProblem(url, deps.config.env);
    if (problem) throw new ValidationError([{ loc: ['body', 'url'], msg: problem, type: 'value_error.url' }]);
  };
  return [
    defineRoute({
      method: 'get',
      path: '/api/webhooks',
      summary: 'List own webhook endpoints',
      tags,
      access,
      response: WebhookEndpointList,
      handler: async ({ caller }) => ({ items: await listEndpoints(db, caller.account.id) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/webhooks',
      summary: 'Register a webhook endpoint; the signing secret is in this response only',
      tags,
      access,
      body: CreateWebhookBody,
      response: WebhookEndpointCreated,
      status: 201,
      // 409: the account holds its most endpoints (a quota, answered like the collection's and the decks').
      errors: [400, 409],
      description: `Deliveries POST {id, type, created_at, sent_at, attempt, data} with X-Holo-Signature = hex HMAC-SHA256 of the raw body under the secret, X-Holo-Event-Id and X-Holo-Delivery-Attempt. Only https:// URLs to public addresses in production (http to loopback in development). Events: price.alert.triggered (default), price.updated for card_ids. Non-2xx or no answer in ${ATTEMPT_TIMEOUT_MS / 1000} s is retried with exponential backoff; after ${deps.config.webhookDisableAfter} failed deliveries in a row the endpoint is disabled.`,
      handler: async ({ body, caller }) => {
        checkUrl(body.url);
        return createEndpoint(db, deps.webhookBox, caller.account.id, body);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/webhooks/{webhook_id}',
      summary: 'One own webhook endpoint',
      tags,
      access,
      params: WebhookIdParams,
      response: WebhookEndpointOut,
      errors: [404],
      handler: async ({ params, caller }) => ownEndpoint(db, caller.account.id, params.webhook_id),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/webhooks/{webhook_id}',
      summary: 'Change an endpoint; is_active true re-enables a disabled one',
      tags,
      access,
      params: WebhookIdParams,
      body: UpdateWebhookBody,
      response: WebhookEndpointOut,
      errors: [404],
      handler: async ({ params, body, caller }) => {
        checkUrl(body.url);
        return updateEndpoint(db, caller.account.id, params.webhook_id, body);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/webhooks/{webhook_id}/rotate-secret',
      summary: 'Replace the signing secret; the new one is in this response only',
      tags,
      access,
      params: WebhookIdParams,
      response: WebhookEndpointCreated,
      errors: [404],
      handler: async ({ params, caller }) => rotateSecret(db, deps.webhookBox, caller.account.id, params.webhook_id),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/webhooks/{webhook_id}',
      summary: 'Delete an endpoint and its delivery log',
      tags,
      access,
      params: WebhookIdParams,
      response: Ok,
      errors: [404],
      handler: async ({ params, caller }) => {
        await deleteEndpoint(db, caller.account.id, params.webhook_id);
        return { ok: true as const };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/webhooks/{webhook_id}/deliveries',
      summary: 'Delivery log: status, attempts, last status code and error, newest first',
      tags,
      access,
      params: WebhookIdParams,
      query: DeliveriesQuery,
      response: WebhookDeliveryList,
      errors: [404],
      handler: async ({ params, query, caller }) => ({
        items: await listDeliveries(db, caller.account.id, params.webhook_id, query.limit),
      }),
    }),
  ];
};
