// Blocks and reports (spec: POST /api/blocks/{user_id}, POST /api/reports). A blocked user cannot
// message, bid on or buy from the one who blocked them; reports wait for the moderators.
import type { z } from 'zod';
import type { Db } from '../../sql/stores/db.js';
import { DomainError, NotFound } from '../../schemas/errors.js';
import type { BlockList, ReportBody } from '../../schemas/messages.js';
import * as q from '../../sql/messages.js';

/** Refuses (403) what `userId` tries towards someone who blocked them. */
export async function refuseIfBlocked(db: Db, blockerId: number, userId: number, what: string): Promise<void> {
  if ((await q.blockBetween(db, blockerId, userId)).length > 0)
    throw new DomainError('forbidden', `this user does not accept ${what} from you`);
}

export async function blockUser(db: Db, userId: number, otherId: number): Promise<{ ok: true; user_id: number; blocked: boolean }> {
  if (otherId === userId) throw new DomainError('invalid', 'you cannot block yourself');
  if ((await q.userExists(db, otherId)).length === 0) throw new NotFound('User');
  await q.block(db, userId, otherId);
  return { ok: true as const, user_id: otherId, blocked: true };
}

export async function unblockUser(db: Db, userId: number, otherId: number): Promise<{ ok: true; user_id: number; blocked: boolean }> {
  if ((await q.unblock(db, userId, otherId)).length === 0) throw new NotFound('Block');
  return { ok: true as const, user_id: otherId, blocked: false };
}

export async function blocksOf(db: Db, userId: number): Promise<z.infer<typeof BlockList>> {
  return { items: await q.blocksOf(db, userId) };
}

/** A report of a listing, a user or a message the reporter received; once per target (409 again). */
export async function fileReport(
  db: Db,
  reporterId: number,
  report: z.output<typeof ReportBody>,
): Promise<{ ok: true; report_id: number }> {
  if ((await q.reportTargetExists(db, report.target_type, report.target_id, reporterId)).length === 0)
    throw new NotFound(report.target_type === 'listing' ? 'Listing' : report.target_type === 'user' ? 'User' : 'Message');
  const [filed] = await q.insertReport(db, reporterId, report.target_type, report.target_id, report.reason, report.details || null);
  if (!filed) throw new DomainError('conflict', 'you reported this already');
  return { ok: true as const, report_id: filed.id };
}
