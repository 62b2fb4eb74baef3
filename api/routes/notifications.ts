// The notification feed and push device registration (spec: /api/notifications/feed,
// /unread-count, /{id}/read, /read-all; /api/devices/register POST and DELETE).
import type { AppDeps } from '../deps.js';
import { utcIsoSql } from '../../sql/stores/db.js';
import { NotFoundError } from '../http/errors.js';
import { defineRoute } from '../http/route.js';
import {
  DeviceBody,
  DeviceRegistered,
  DeviceTokenBody,
  MarkedRead,
  NotificationFeed,
  NotificationFeedQuery,
  NotificationIdParams,
  UnreadCount,
} from '../../schemas/events.js';
import { Ok } from '../../schemas/auth.js';
import { accountOf } from './auth.js';

const tags = ['notifications'];
const COLUMNS = `id::int AS id, kind, title, body, data, ${utcIsoSql('created_at')} AS created_at, ${utcIsoSql('read_at')} AS read_at`;

export const notificationRoutes = (deps: AppDeps) => {
  const { db } = deps;
  const unread = async (userId: number) =>
    (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND read_at IS NULL', [userId]))[0]!.n;
  return [
    defineRoute({
      method: 'get',
      path: '/api/notifications/feed',
      summary: 'Own notifications, newest first (page with before_id)',
      tags,
      access: 'auth',
      query: NotificationFeedQuery,
      response: NotificationFeed,
      handler: async ({ query, ctx }) => {
        const user = accountOf(ctx);
        const items = await db.query<{
          id: number;
          kind: string;
          title: string;
          body: string;
          data: Record<string, unknown>;
          created_at: string;
          read_at: string | null;
        }>(`SELECT ${COLUMNS} FROM notifications WHERE user_id = $1 AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`, [
          user.id,
          query.before_id ?? null,
          query.limit,
        ]);
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
      handler: async ({ ctx }) => ({ count: await unread(accountOf(ctx).id) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/notifications/{notification_id}/read',
      summary: 'Mark one own notification read',
      tags,
      access: 'auth',
      params: NotificationIdParams,
      response: MarkedRead,
      errors: [404],
      handler: async ({ params, ctx }) => {
        const rows = await db.query(
          'UPDATE notifications SET read_at = coalesce(read_at, now()) WHERE id = $1 AND user_id = $2 RETURNING id',
          [params.notification_id, accountOf(ctx).id],
        );
        if (rows.length === 0) throw new NotFoundError('Notification');
        return { ok: true as const, marked: 1 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/notifications/read-all',
      summary: 'Mark every own notification read',
      tags,
      access: 'auth',
      response: MarkedRead,
      handler: async ({ ctx }) => {
        const rows = await db.query('UPDATE notifications SET read_at = now() WHERE user_id = $1 AND read_at IS NULL RETURNING id', [
          accountOf(ctx).id,
        ]);
        return { ok: true as const, marked: rows.length };
      },
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
      description:
        'A token already registered moves to the calling account (a phone changes hands); at most 20 devices per account, the least recently seen is dropped.',
      handler: async ({ body, ctx }) => {
        const user = accountOf(ctx);
        const id = await db.transaction(async (tx) => {
          const [row] = await tx.query<{ id: number }>(
            `INSERT INTO push_devices (user_id, platform, token) VALUES ($1, $2, $3)
             ON CONFLICT (token) DO UPDATE SET user_id = excluded.user_id, platform = excluded.platform, last_seen_at = now() RETURNING id`,
            [user.id, body.platform, body.token],
          );
          await tx.query(
            'DELETE FROM push_devices WHERE user_id = $1 AND id NOT IN (SELECT id FROM push_devices WHERE user_id = $1 ORDER BY last_seen_at DESC LIMIT 20)',
            [user.id],
          );
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
      handler: async ({ body, ctx }) => {
        const rows = await db.query('DELETE FROM push_devices WHERE token = $1 AND user_id = $2 RETURNING id', [
          body.token,
          accountOf(ctx).id,
        ]);
        if (rows.length === 0) throw new NotFoundError('Device');
        return { ok: true as const };
      },
    }),
  ];
};
