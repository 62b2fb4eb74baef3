// Private messages and moderation (spec: "Private message", "Message list", the reports and
// blocks rows of "Named paths").
import { freeText, intParam, text, usernameRef, z, PG_INT_MAX } from './common.js';

export const MessageOut = z
  .object({
    id: z.number().int(),
    sender_id: z.number().int(),
    recipient_id: z.number().int(),
    from_username: z.string(),
    to_username: z.string(),
    listing_id: z.number().int().nullable(),
    subject: z.string(),
    body: z.string(),
    created_at: z.string(),
    read_at: z.string().nullable(),
  })
  .openapi('Message');
export const MessageList = z
  .object({
    items: z.array(MessageOut),
    messages: z.array(MessageOut).openapi({ description: 'the same list as items (the spec names both)' }),
  })
  .openapi('MessageList');
export const MessageListQuery = z.strictObject({
  folder: z.enum(['inbox', 'sent', 'all']).default('inbox'),
  listing_id: intParam({ min: 1, max: PG_INT_MAX }).optional(),
  limit: intParam({ min: 1, max: 100 }).default(50),
});
export const SendMessageBody = z
  .strictObject({
    to_username: usernameRef,
    listing_id: z.number().int().positive().max(PG_INT_MAX).optional(),
    subject: text({ min: 0, max: 200 }).default(''),
    body: freeText({ max: 5000 }),
  })
  .openapi('SendMessage');
export const MessageIdParams = z.strictObject({ message_id: intParam({ min: 1, max: PG_INT_MAX }) });
export const MessageThreads = z
  .object({
    items: z.array(
      z.object({
        other_user_id: z.number().int(),
        other_username: z.string(),
        listing_id: z.number().int().nullable(),
        messages: z.number().int(),
        unread: z.number().int(),
        last_message_id: z.number().int(),
        last_subject: z.string(),
        last_at: z.string(),
      }),
    ),
  })
  .openapi('MessageThreads');

export const REPORT_REASONS = ['counterfeit', 'misdescribed', 'spam', 'abuse', 'fraud', 'other'] as const;
export const ReportBody = z
  .strictObject({
    target_type: z.enum(['listing', 'user', 'message']),
    target_id: z.number().int().positive().max(PG_INT_MAX),
    reason: z.enum(REPORT_REASONS),
    details: freeText({ min: 0, max: 2000 }).optional(),
  })
  .openapi('Report');
export const ReportFiled = z.object({ ok: z.literal(true), report_id: z.number().int() }).openapi('ReportFiled');

export const UserIdParams = z.strictObject({ user_id: intParam({ min: 1, max: PG_INT_MAX }) });
export const Blocked = z.object({ ok: z.literal(true), user_id: z.number().int(), blocked: z.boolean() }).openapi('BlockState');
export const BlockList = z
  .object({ items: z.array(z.object({ user_id: z.number().int(), username: z.string(), blocked_at: z.string() })) })
  .openapi('BlockList');
