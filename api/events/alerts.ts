// Price alerts of an account (spec: "Price alert"): list, create (bounded per account), delete.
// Their evaluation after each price load is ingest/events/alertTriggers.ts.
import type { Db } from '../../sql/stores/db.js';
import { DomainError, NotFound } from '../../schemas/errors.js';
import * as q from '../../sql/alerts.js';
import { cardExists } from '../../sql/v2Catalogue.js';

export type Alert = q.AlertRow;

/** Alerts per account: enough for any collector, bounded so evaluation stays cheap. */
export const MAX_ALERTS_PER_USER = 500;

export async function listAlerts(db: Db, userId: number): Promise<Alert[]> {
  return q.alertsOf(db, userId);
}

export async function createAlert(
  db: Db,
  userId: number,
  input: { card_id: number; target_price: number; condition: 'below' | 'above'; currency: string },
): Promise<Alert> {
  return db.transaction(async (tx) => {
    await q.lockAccount(tx, userId);
    const [count] = await q.alertCount(tx, userId);
    if (count!.n >= MAX_ALERTS_PER_USER)
      throw new DomainError('conflict', `At most ${MAX_ALERTS_PER_USER} alerts per account; delete some first`);
    if ((await cardExists(tx, input.card_id)).length === 0) throw new NotFound('Card');
    // The account's row lock above makes this check and the insert one step.
    if ((await q.duplicateAlert(tx, userId, input.card_id, input.condition, input.target_price, input.currency)).length)
      throw new DomainError('conflict', 'alert exists');
    const [row] = await q.insertAlert(tx, userId, input.card_id, input.target_price, input.condition, input.currency);
    return (await q.alertById(tx, row!.id))[0]!;
  });
}

/** Deletes one of the account's alerts; 404 when it has no such alert. */
export async function deleteAlert(db: Db, userId: number, alertId: number): Promise<void> {
  if ((await q.deleteAlertOf(db, alertId, userId)).length === 0) throw new NotFound('Alert');
}
