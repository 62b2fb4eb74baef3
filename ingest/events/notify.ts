// One notification, every channel the user has: an in-app row, an e-mail in the outbox (when
// they opted in and have an address) and a push to each enabled device, queued in push_outbox.
// All three are written on the caller's transaction, so a notification exists whole or not at all;
// the outbox workflow sends the pushes after commit (startPushOutbox). Alerts, wishlist
// thresholds, marketplace transactions, bids and messages use it.
import { queueEmail } from './email.js';
import { insertNotification, queuePushes } from '../../sql/notifications.js';
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

/** Records the notification, its e-mail and its pushes (none for a digest, which is e-mail) on the caller's transaction. */
export async function recordNotice(client: PgRunner, n: Notice): Promise<{ notificationId: number; pushes: number }> {
  const [row] = await insertNotification(client, n.userId, n.kind, n.title, n.body, JSON.stringify(n.data));
  if (n.email) await queueEmail(client, { userId: n.userId, to: n.email.to, kind: n.kind, subject: n.email.subject, text: n.email.text });
  const pushes =
    n.kind === 'digest' ? [] : await queuePushes(client, n.userId, n.title, n.body, JSON.stringify({ kind: n.kind, ...n.data }));
  return { notificationId: row!.id, pushes: pushes.length };
}
