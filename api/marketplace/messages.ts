// Private messages between users, optionally about a listing (spec: "Private message", "Message
// list"). Sending notifies the recipient in the app and on their devices (no e-mail: messages are
// read where they are written); a user who blocked the sender does not get the message (403).
import type { z } from 'zod';
import type { Db } from '../../sql/stores/db.js';
import { DomainError, NotFound } from '../../schemas/errors.js';
import type { MessageList, MessageListQuery, MessageOut, MessageThreads, SendMessageBody } from '../../schemas/messages.js';
import * as q from '../../sql/messages.js';
import { listingRecord } from '../../sql/listings.js';
import { recordNotice } from '../../ingest/events/notify.js';
import { refuseIfBlocked } from './moderation.js';

type Message = z.infer<typeof MessageOut>;

export async function sendMessage(db: Db, senderId: number, input: z.output<typeof SendMessageBody>): Promise<Message> {
  return db.transaction(async (tx) => {
    const [recipient] = await q.userByUsername(tx, input.to_username);
    if (!recipient) throw new NotFound('User');
    if (recipient.id === senderId) throw new DomainError('invalid', 'you cannot message yourself');
    await refuseIfBlocked(tx, recipient.id, senderId, 'messages');
    if (input.listing_id !== undefined && (await listingRecord(tx, input.listing_id)).length === 0) throw new NotFound('Listing');
    const [created] = await q.insertMessage(tx, senderId, recipient.id, input.listing_id ?? null, input.subject, input.body);
    const [message] = await q.messageRecord(tx, created!.id);
    await recordNotice(tx, {
      userId: recipient.id,
      kind: 'message',
      title: `Message from ${message!.from_username}`,
      body: message!.subject || message!.body.slice(0, 140),
      data: { message_id: message!.id, listing_id: message!.listing_id },
      email: null,
    });
    return message!;
  });
}

export async function messagesOf(db: Db, userId: number, query: z.output<typeof MessageListQuery>): Promise<z.infer<typeof MessageList>> {
  const items = await q.messagesOf(db, userId, query.folder, query.listing_id ?? null, query.limit);
  return { items, messages: items };
}

export async function threadsOf(db: Db, userId: number): Promise<z.infer<typeof MessageThreads>> {
  const items = await q.threadsOf(db, userId);
  return { items: items.sort((a, b) => b.last_message_id - a.last_message_id) };
}

/** One message, to its sender or recipient (anyone else: 404); the recipient's first reading marks it read. */
export async function readMessage(db: Db, userId: number, messageId: number): Promise<Message> {
  const [message] = await q.messageRecord(db, messageId);
  if (!message || (message.sender_id !== userId && message.recipient_id !== userId)) throw new NotFound('Message');
  if (message.recipient_id !== userId || message.read_at) return message;
  await q.markMessageRead(db, messageId, userId);
  return (await q.messageRecord(db, messageId))[0]!;
}
