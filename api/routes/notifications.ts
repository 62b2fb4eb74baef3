// The notification feed, push device registration and e-mail choices (spec: /api/notifications/feed,
// /unread-count, /{id}/read, /read-all; /api/devices/register POST and DELETE; ours: GET and POST
// /me/notifications).
import type { AppDeps } from '../deps.js';
import {
  emailSettings,
  markAllNotificationsRead,
  markNotificationRead,
  notificationFeed,
  registerPushDevice,
  trimPushDevices,
  unreadNotificationCount,
  unregisterPushDevice,
} from '../../sql/notifications.js';
import { defineRoute } from '../http/route.js';
import {
  DeviceBody,
  DeviceRegistered,
  DeviceTokenBody,
  EmailSettings,
  EmailSettingsBody,
  MarkedRead,
  NotificationFeed,
  NotificationFeedQuery,
  NotificationIdParams,
  UnreadCount,
  VapidKey,
} from '../../schemas/events.js';
import { webhookUrlProblem } from '../events/webhookEndpoints.js';
import { Ok } from '../../schemas/auth.js';
import { DomainError, NotFound } from '../../schemas/errors.js';

const tags = ['notifications'];
/** Devices kept per account; registering one more drops the least recently seen. */
const MAX_DEVICES_PER_USER = 20;

export const notificationRoutes = (deps: AppDeps) => {
  const { db } = deps;
  const unread = async (userId: number) => (await unreadNotificationCount(db, userId))[0]!.n;
  const emailChoices = async (userId: number, change: { alert_emails?: boolean; digest_emails?: boolean }) => {
    const [choices] = await emailSettings(db, userId, change.alert_emails ?? null, change.digest_emails ?? null);
    return { ok: true as const, ...choices! };
  };
  return [
    defineRoute({
      method: 'get',
      path: '/me/notifications',
      summary: 'What own account receives by e-mail',
      tags,
      access: 'auth',
      response: EmailSettings,
      handler: async ({ caller }) => emailChoices(caller.account.id, {}),
    }),
    defineRoute({
      method: 'post',
      path: '/me/notifications',
      summary: 'Choose what own account receives by e-mail: triggered alerts, the daily digest',
      description:
        'Both are off until chosen (the spec e-mails an alert "if the user opted in"). In-app notifications and pushes do not depend on them; POST /alerts/digest-now e-mails the digest because it is asked for.',
      tags,
      access: 'auth',
      body: EmailSettingsBody,
      response: EmailSettings,
      handler: async ({ body, caller }) => emailChoices(caller.account.id, body),
    }),
    defineRoute({
      method: 'get',
      path: '/api/notifications/feed',
      summary: 'Own notifications, newest first (page with before_id)',
      tags,
      access: 'auth',
      query: NotificationFeedQuery,
      response: NotificationFeed,
      handler: async ({ query, caller }) => {
        const user = caller.account;
        const items = await notificationFeed(db, user.id, query.before_id ?? null, query.limit);
        return { items, unread: await unread(user.id) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/notifications/unread-count',
      summary: 'Number of unread notifications',
      tags,
      access: 'auth',
      response: UnreadCount,
      handler: async ({ caller }) => ({ count: await unread(caller.account.id) }),
    }),
    // The spec lists these two with GET (links in notification e-mails and old clients); POST is
    // the method to prefer. Both do the same, and marking read twice changes nothing.
    ...(['post', 'get'] as const).flatMap((method) => [
      defineRoute({
        method,
        path: '/api/notifications/{notification_id}/read',
        summary: `Mark one own notification read${method === 'get' ? ' (GET as the spec lists it; prefer POST)' : ''}`,
        tags,
        access: 'auth',
        params: NotificationIdParams,
        response: MarkedRead,
        errors: [404],
        handler: async ({ params, caller }) => {
          const rows = await markNotificationRead(db, params.notification_id, caller.account.id);
          if (rows.length === 0) throw new NotFound('Notification');
          return { ok: true as const, marked: 1 };
        },
      }),
      defineRoute({
        method,
        path: '/api/notifications/read-all',
        summary: `Mark every own notification read${method === 'get' ? ' (GET as the spec lists it; prefer POST)' : ''}`,
        tags,
        access: 'auth',
        response: MarkedRead,
        handler: async ({ caller }) => {
          const rows = await markAllNotificationsRead(db, caller.account.id);
          return { ok: true as const, marked: rows.length };
        },
      }),
    ]),
    defineRoute({
      method: 'get',
      path: '/api/devices/vapid-key',
      summary: 'The VAPID public key browsers subscribe to Web Push with',
      tags,
      access: 'free',
      response: VapidKey,
      handler: async () => ({ public_key: deps.vapid.publicKey }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/devices/register',
      summary: 'Register a device for push notifications (alerts, bids, messages)',
      tags,
      access: 'auth',
      body: DeviceBody,
      response: DeviceRegistered,
      status: 201,
      errors: [400],
      description:
        'A token already registered moves to the calling account (a phone changes hands) and is enabled again; at most 20 devices per account, the least recently seen is dropped. Web: `token` is the subscription’s endpoint (https and public in production, as webhook URLs: 400 otherwise) and `keys` its p256dh and auth keys; the subscription is made with the key of GET /api/devices/vapid-key. A device its push service calls gone (404, 410) is disabled until registered again.',
      handler: async ({ body, caller }) => {
        const user = caller.account;
        const problem = body.platform === 'web' ? webhookUrlProblem(body.token, deps.config.env) : null;
        if (problem) throw new DomainError('invalid', `token: ${problem}`);
        const keys = body.platform === 'web' ? body.keys : null;
        const id = await db.transaction(async (tx) => {
          const [row] = await registerPushDevice(tx, user.id, body.platform, body.token, keys?.p256dh ?? null, keys?.auth ?? null);
          await trimPushDevices(tx, user.id, MAX_DEVICES_PER_USER);
          return row!.id;
        });
        return { ok: true as const, device_id: id };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/devices/register',
      summary: 'Unregister an own device',
      tags,
      access: 'auth',
      body: DeviceTokenBody,
      response: Ok,
      errors: [404],
      handler: async ({ body, caller }) => {
        const rows = await unregisterPushDevice(db, body.token, caller.account.id);
        if (rows.length === 0) throw new NotFound('Device');
        return { ok: true as const };
      },
    }),
  ];
};
