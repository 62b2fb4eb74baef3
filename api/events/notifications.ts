// The notification feed, push device registration and e-mail choices of one account: what the
// notification routes do, callable without HTTP. notificationsPresenter.ts shapes what these return.
import type { z } from 'zod';
import type { AppDeps } from '../deps.js';
import type { Db } from '../../sql/stores/db.js';
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
import type { DeviceBody, NotificationFeedQuery } from '../../schemas/events.js';
import { webhookUrlProblem } from './webhooks.js';
import { DomainError, NotFound } from '../../schemas/errors.js';

/** Devices kept per account; registering one more drops the least recently seen. */
const MAX_DEVICES_PER_USER = 20;

/** The account's e-mail choices after applying `change` (a choice left out stays as it is). */
export async function emailChoicesOf(db: Db, userId: number, change: { alert_emails?: boolean; digest_emails?: boolean }) {
  const [choices] = await emailSettings(db, userId, change.alert_emails ?? null, change.digest_emails ?? null);
  return choices!;
}

export const unreadCountOf = async (db: Db, userId: number) => (await unreadNotificationCount(db, userId))[0]!.n;

/** A page of the account's notifications, newest first, and how many are unread. */
export async function feedOf(db: Db, userId: number, query: z.output<typeof NotificationFeedQuery>) {
  const items = await notificationFeed(db, userId, query.before_id ?? null, query.limit);
  return { items, unread: await unreadCountOf(db, userId) };
}

/** Marks one of the account's notifications read (again: no change); 404 when it is not the account's. */
export async function markRead(db: Db, notificationId: number, userId: number): Promise<number> {
  const rows = await markNotificationRead(db, notificationId, userId);
  if (rows.length === 0) throw new NotFound('Notification');
  return 1;
}

/** Marks every notification of the account read; how many were unread. */
export const markAllRead = async (db: Db, userId: number) => (await markAllNotificationsRead(db, userId)).length;

/**
 * Registers a push device for the account (a token registered before moves to it, enabled again)
 * and keeps its MAX_DEVICES_PER_USER most recently seen; a web subscription's endpoint must be a
 * URL a webhook could use. Returns the device's id.
 */
export async function registerDevice(
  { db, config }: Pick<AppDeps, 'db' | 'config'>,
  userId: number,
  body: z.output<typeof DeviceBody>,
): Promise<number> {
  const problem = body.platform === 'web' ? webhookUrlProblem(body.token, config.env) : null;
  if (problem) throw new DomainError('invalid', `token: ${problem}`);
  const keys = body.platform === 'web' ? body.keys : null;
  return db.transaction(async (tx) => {
    const [row] = await registerPushDevice(tx, userId, body.platform, body.token, keys?.p256dh ?? null, keys?.auth ?? null);
    await trimPushDevices(tx, userId, MAX_DEVICES_PER_USER);
    return row!.id;
  });
}

/** Unregisters one of the account's devices; 404 when the token is not the account's. */
export async function unregisterDevice(db: Db, token: string, userId: number): Promise<void> {
  const rows = await unregisterPushDevice(db, token, userId);
  if (rows.length === 0) throw new NotFound('Device');
}
