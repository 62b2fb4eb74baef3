// The notification feed and push devices of an account: one typed function per query file.
import { z } from 'zod';
import { pgQuery } from './typedQuery.js';

const Count = z.object({ n: z.number().int() });
/** Unread notifications of an account (one row). */
export const unreadNotificationCount = pgQuery<[userId: number], typeof Count>('notification_unread_count', Count);

const Notification = z.object({
  id: z.number().int(),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  data: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  read_at: z.string().nullable(),
});
/** An account's notifications, newest first, before `beforeId` (null: from the newest). */
export const notificationFeed = pgQuery<[userId: number, beforeId: number | null, limit: number], typeof Notification>(
  'notification_feed',
  Notification,
);

const Id = z.object({ id: z.number().int() });
/** Marks one own notification read: a row when it was the account's. */
export const markNotificationRead = pgQuery<[notificationId: number, userId: number], typeof Id>('notification_mark_read', Id);
/** Marks every unread notification of an account read: a row per notification marked. */
export const markAllNotificationsRead = pgQuery<[userId: number], typeof Id>('notification_mark_all_read', Id);

/** Registers a push token for an account (moving it from another account if it was there). */
export const registerPushDevice = pgQuery<[userId: number, platform: string, token: string], typeof Id>('push_device_register', Id);
/** Keeps an account's `keep` most recently seen devices. */
export const trimPushDevices = pgQuery<[userId: number, keep: number], typeof Id>('push_device_trim', Id);
/** Removes an own device by its token: a row when it was the account's. */
export const unregisterPushDevice = pgQuery<[token: string, userId: number], typeof Id>('push_device_unregister', Id);
