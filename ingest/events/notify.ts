// One notification, every channel the user has: an in-app row, an e-mail in the outbox (when
// they opted in and have an address) and a push to each registered device. Alerts and
// marketplace transactions, bids and messages use it.
import type { PushMessage, PushSender } from './push.js';
import { queueEmail } from './email.js';
import { insertNotification, pushDevicesOf } from '../../sql/notifications.js';
import type { PgRunner } from '../../sql/typedQuery.js';

export type NotificationKind = 'price_alert' | 'wishlist' | 'digest' | 'bid' | 'message' | 'transaction';
export type Notice = {
  userId: number;
  kind: NotificationKind;
  title: string;
  body: string;
  data: Record<string, unknown>;
  email: { to: string; subject: string; text: string } | null;
};

/** Records the notification and its e-mail on the caller's transaction; pushes go out after commit (pushToDevices). */
export async function recordNotice(client: PgRunner, n: Notice): Promise<{ notificationId: number }> {
  const [row] = await insertNotification(client, n.userId, n.kind, n.title, n.body, JSON.stringify(n.data));
  if (n.email) await queueEmail(client, { userId: n.userId, to: n.email.to, kind: n.kind, subject: n.email.subject, text: n.email.text });
  return { notificationId: row!.id };
}

/** Push fan-out (alerts, bids, messages) to every device of the user; a failing device does not stop the others. */
export async function pushToDevices(pool: PgRunner, sender: PushSender, userId: number, message: PushMessage): Promise<number> {
  const rows = await pushDevicesOf(pool, userId);
  const results = await Promise.allSettled(rows.map((d) => sender.send(d, message)));
  return results.filter((r) => r.status === 'fulfilled').length;
}
