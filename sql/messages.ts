// Private messages, blocks and reports: one typed function per query file.
import { z } from 'zod';
import { BlockList, MessageOut, MessageThreads } from '../schemas/messages.js';
import { pgQuery, pgStatement, rows } from './typedQuery.js';

/** A new message; its id. */
export const insertMessage = pgQuery<
  [senderId: number, recipientId: number, listingId: number | null, subject: string, body: string],
  typeof rows.id
>('messages/message_create', rows.id);
/** One message. */
export const messageRecord = pgQuery<[messageId: number], typeof MessageOut>('messages/message_record', MessageOut);
/** A user's messages in a folder, newest first. */
export const messagesOf = pgQuery<
  [userId: number, folder: 'inbox' | 'sent' | 'all', listingId: number | null, limit: number],
  typeof MessageOut
>('messages/messages_of_user', MessageOut);
const Thread = MessageThreads.shape.items.element;
/** A user's conversations. */
export const threadsOf = pgQuery<[userId: number], typeof Thread>('messages/message_threads', Thread);
/** Marks a received message read; its id when it is the user's. */
export const markMessageRead = pgQuery<[messageId: number, recipientId: number], typeof rows.id>('messages/message_mark_read', rows.id);

/** A live account by username. */
export const userByUsername = pgQuery<[username: string], typeof rows.id>('messages/user_by_username', rows.id);
/** A live account by id. */
export const userExists = pgQuery<[userId: number], typeof rows.id>('messages/user_exists', rows.id);
/** Blocks a user. */
export const block = pgStatement<[blockerId: number, blockedId: number]>('messages/block_create');
/** Unblocks a user; a row when there was a block. */
export const unblock = pgQuery<[blockerId: number, blockedId: number], typeof rows.id>('messages/block_delete', rows.id);
const BlockRow = BlockList.shape.items.element;
/** Whom a user blocks. */
export const blocksOf = pgQuery<[userId: number], typeof BlockRow>('messages/blocks_of_user', BlockRow);
/** A row when $1 blocks $2. */
export const blockBetween = pgQuery<[blockerId: number, blockedId: number], typeof rows.id>('messages/block_between', rows.id);

/** A report; its id, or none when this user reported this target already. */
export const insertReport = pgQuery<
  [reporterId: number, targetType: string, targetId: number, reason: string, details: string | null],
  typeof rows.id
>('messages/report_create', rows.id);
const Exists = z.object({ id: z.number().int() });
/** A row when the report's target exists (a message: one the reporter received). */
export const reportTargetExists = pgQuery<[targetType: string, targetId: number, reporterId: number], typeof Exists>(
  'messages/report_target_exists',
  Exists,
);
