// Price alerts and the digest (spec: "Price alert", "Alert"; POST /alerts, POST /alerts/digest-now;
// list and delete paths are ours: GET /alerts, DELETE /alerts/{alert_id}).
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../http/route.js';
import { createAlert, deleteAlert, listAlerts } from '../events/alerts.js';
import { DIGEST_NOW_PER_HOUR, digestNow } from '../events/digestNow.js';
import { AlertIdParams, AlertList, AlertOut, CreateAlertBody, DigestQueued } from '../../schemas/events.js';
import { Ok } from '../../schemas/auth.js';

const tags = ['alerts'];

export const alertRoutes = (deps: AppDeps) => [
  defineRoute({
    method: 'get',
    path: '/alerts',
    summary: 'List own price alerts',
    tags,
    access: 'auth',
    response: AlertList,
    handler: async ({ caller }) => ({ items: await listAlerts(deps.db, caller.account.id) }),
  }),
  defineRoute({
    method: 'post',
    path: '/alerts',
    summary: 'Create a price alert: triggers once when a scrape crosses the target',
    tags,
    access: 'auth',
    body: CreateAlertBody,
    response: AlertOut,
    status: 201,
    errors: [400, 404, 409],
    description:
      'below: triggers when the market price is at or under target_price; above: at or over. Prices in other currencies are converted with the latest ECB rates. At most 500 alerts per account. The same card, direction, target and currency as an armed alert of the account: 409 "alert exists". E-mailed when it triggers only if the account chose alert e-mails (POST /me/notifications).',
    handler: async ({ body, caller }) => createAlert(deps.db, caller.account.id, body),
  }),
  defineRoute({
    method: 'delete',
    path: '/alerts/{alert_id}',
    summary: 'Delete an own price alert',
    tags,
    access: 'auth',
    params: AlertIdParams,
    response: Ok,
    errors: [404],
    handler: async ({ params, caller }) => {
      await deleteAlert(deps.db, caller.account.id, params.alert_id);
      return { ok: true as const };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/alerts/digest-now',
    summary: `Send own daily digest now (notification and e-mail); at most ${DIGEST_NOW_PER_HOUR} an hour per account`,
    tags,
    access: 'auth',
    response: DigestQueued,
    errors: [429],
    handler: async ({ caller }) => ({ ok: true as const, queued: await digestNow(deps, caller.account.id) }),
  }),
];
