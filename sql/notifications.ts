// The notification feed and push devices of an account: one typed function per query file.
import { z } from 'zod';
import { NotificationOut } from '../schemas/events.js';
import { col, pgQuery, pgStatement, rows } from './typedQuery.js';

/** Unread notifications of an account (one row). */
export const unreadNotificationCount = pgQuery<[userId: number], typeof rows.count>('notifications/notification_unread_count', rows.count);

/** An account's notifications, newest first, before `beforeId` (null: from the newest). */
export const notificationFeed = pgQuery<[userId: number, beforeId: number | null, limit: number], typeof NotificationOut>(
  'notifications/notification_feed',
  NotificationOut,
);

/** Marks one own notification read: a row when it was the account's. */
export const markNotificationRead = pgQuery<[notificationId: number, userId: number], typeof rows.bigId>(
  'notifications/notification_mark_read',
  rows.bigId,
);
/** Marks every unread notification of an account read: a row per notification marked. */
export const markAllNotificationsRead = pgQuery<[userId: number], typeof rows.bigId>(
  'notifications/notification_mark_all_read',
  rows.bigId,
);

/** Registers a push token (a Web Push endpoint with its keys) for an account, moving and enabling it. */
export const registerPushDevice = pgQuery<
  [userId: number, platform: string, token: string, p256dh: string | null, authSecret: string | null],
  typeof rows.id
>('notifications/push_device_register', rows.id);
/** Keeps an account's `keep` most recently seen devices. */
export const trimPushDevices = pgQuery<[userId: number, keep: number], typeof rows.id>('notifications/push_device_trim', rows.id);
/** Removes an own device by its token: a row when it was the account's. */
export const unregisterPushDevice = pgQuery<[token: string, userId: number], typeof rows.id>(
  'notifications/push_device_unregister',
  rows.id,
);

/** A push to every enabled device of an account, in the caller's transaction. */
export const queuePushes = pgQuery<[userId: number, title: string, body: string, dataJson: string], typeof rows.bigId>(
  'notifications/push_outbox_queue',
  rows.bigId,
);
const ClaimedPush = z.object({
  id: col.number,
  attempts: z.number().int(),
  title: z.string(),
  body: z.string(),
  data: z.record(z.string(), z.unknown()),
  device_id: z.number().int(),
  platform: z.enum(['ios', 'android', 'web']),
  token: z.string(),
  p256dh: z.string().nullable(),
  auth_secret: z.string().nullable(),
});
export type ClaimedPush = z.infer<typeof ClaimedPush>;
/** Claims due pushes for a while (SKIP LOCKED), counting an attempt each. */
export const claimPushes = pgQuery<[limit: number, claimSeconds: number], typeof ClaimedPush>(
  'notifications/push_outbox_claim',
  ClaimedPush,
);
/** A push ended for good: sent, failed or unconfigured. */
export const endPush =
  pgStatement<[pushId: number, state: 'sent' | 'failed' | 'unconfigured', error: string | null]>('notifications/push_outbox_ended');
/** A push failed for now: again after `delaySeconds`, or failed once it had `maxAttempts`. */
export const retryPush =
  pgStatement<[pushId: number, error: string, delaySeconds: number, maxAttempts: number]>('notifications/push_outbox_retry');
/** A device its push service calls gone: disabled, its waiting pushes ended. */
export const disableGoneDevice = pgStatement<[deviceId: number, why: string]>('notifications/push_device_gone');
const NextDue = z.object({ seconds: z.number().nullable() });
/** Seconds until the next waiting push is due; null when none waits. */
export const nextPushDue = pgQuery<[], typeof NextDue>('notifications/push_outbox_next_due', NextDue);
/** A new in-app notification; its id. */
export const insertNotification = pgQuery<[userId: number, kind: string, title: string, body: string, dataJson: string], typeof rows.bigId>(
  'notifications/notification_create',
  rows.bigId,
);
/** An e-mail into the outbox; its id. */
export const queueOutboxEmail = pgQuery<
  [userId: number | null, to: string, kind: string, subject: string, text: string],
  typeof rows.bigId
>('notifications/email_outbox_queue', rows.bigId);
const Claimed = z.object({ id: col.number, to_address: z.string(), subject: z.string(), body_text: z.string() });
/** Claims unsent e-mails for a while (SKIP LOCKED: two senders never take the same row). */
export const claimOutboxEmails = pgQuery<[limit: number, claimSeconds: number, maxAttempts: number], typeof Claimed>(
  'notifications/email_outbox_claim',
  Claimed,
);
/** An outbox e-mail went out. */
export const markEmailSent = pgStatement<[emailId: number]>('notifications/email_outbox_sent');
/** An SMTP exchange failed; the claim is released. */
export const markEmailFailed = pgStatement<[emailId: number, error: string]>('notifications/email_outbox_send_failed');

const DigestAccount = z.object({ id: z.number().int(), username: z.string(), email: z.string() });
/** Accounts a scheduled digest goes to today. */
export const digestAccountsDue = pgQuery<[], typeof DigestAccount>('notifications/digest_accounts_due', DigestAccount);
/** The one account a digest-now goes to. */
export const digestAccount = pgQuery<[userId: number], typeof DigestAccount>('notifications/digest_account', DigestAccount);
const DigestLine = z.object({
  card_name: z.string(),
  condition: z.string(),
  target_price: z.number(),
  currency: z.string(),
  triggered_at: z.string().nullable(),
  best_price: z.number().nullable(),
});
export type DigestLine = z.infer<typeof DigestLine>;
/** A digest's lines: alerts triggered in the last 24 hours and armed ones, with each card's best price. */
export const digestLines = pgQuery<[userId: number], typeof DigestLine>('notifications/digest_lines', DigestLine);

const EmailChoices = z.object({ alert_emails: z.boolean(), digest_emails: z.boolean() });
/** An account's e-mail choices, each changed when given (null keeps it). */
export const emailSettings = pgQuery<[userId: number, alertEmails: boolean | null, digestEmails: boolean | null], typeof EmailChoices>(
  'notifications/account_email_settings',
  EmailChoices,
);
