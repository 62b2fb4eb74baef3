// The notification feed, push device registration and e-mail choices (spec: /api/notifications/feed,
// /unread-count, /{id}/read, /read-all; /api/devices/register POST and DELETE; ours: GET and POST
// /me/notifications).
import type { AppDeps } from '../deps.js';
import { emailChoicesOf, feedOf, markAllRead, markRead, registerDevice, unreadCountOf, unregisterDevice } from '../events/notifications.js';
import { presentDeviceRegistered, presentEmailSettings, presentMarkedRead, presentUnreadCount } from '../events/notificationsPresenter.js';
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
import { Ok } from '../../schemas/auth.js';

const tags = ['notifications'];

export const notificationRoutes = (deps: AppDeps) => {
  const { db } = deps;
  return [
    defineRoute({
      method: 'get',
      path: '/me/notifications',
      summary: 'What own account receives by e-mail',
      tags,
      access: 'auth',
      response: EmailSettings,
      handler: async ({ caller }) => presentEmailSettings(await emailChoicesOf(db, caller.account.id, {})),
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
      handler: async ({ body, caller }) => presentEmailSettings(await emailChoicesOf(db, caller.account.id, body)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/notifications/feed',
      summary: 'Own notifications, newest first (page with before_id)',
      tags,
      access: 'auth',
      query: NotificationFeedQuery,
      response: NotificationFeed,
      handler: ({ query, caller }) => feedOf(db, caller.account.id, query),
    }),
    defineRoute({
      method: 'get',
      path: '/api/notifications/unread-count',
      summary: 'Number of unread notifications',
      tags,
      access: 'auth',
      response: UnreadCount,
      handler: async ({ caller }) => presentUnreadCount(await unreadCountOf(db, caller.account.id)),
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
        handler: async ({ params, caller }) => presentMarkedRead(await markRead(db, params.notification_id, caller.account.id)),
      }),
      defineRoute({
        method,
        path: '/api/notifications/read-all',
        summary: `Mark every own notification read${method === 'get' ? ' (GET as the spec lists it; prefer POST)' : ''}`,
        tags,
        access: 'auth',
        response: MarkedRead,
        handler: async ({ caller }) => presentMarkedRead(await markAllRead(db, caller.account.id)),
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
      handler: async ({ body, caller }) => presentDeviceRegistered(await registerDevice(deps, caller.account.id, body)),
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
        await unregisterDevice(db, body.token, caller.account.id);
        return { ok: true as const };
      },
    }),
  ];
};
