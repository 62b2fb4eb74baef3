// Price alerts of an account (spec: "Price alert"): list, create (bounded per account), delete.
// Their evaluation after each price load is ingest/events/alertTriggers.ts.
import type { Db } from '../../sql/stores/db.js';
import { DomainError, NotFound } from '../../schemas/errors.js';
import { ALERT_COLUMNS, type Alert } from '../../ingest/events/alertTriggers.js';

export type { Alert };

/** Alerts per account: enough for any collector, bounded so evaluation stays cheap. */
export const MAX_ALERTS_PER_USER = 500;

export async function listAlerts(db: Db, userId: number): Promise<Alert[]> {
  return db.query<Alert>(
    `SELECT ${ALERT_COLUMNS} FROM price_alerts a JOIN cards c ON c.id = a.card_id WHERE a.user_id = $1 ORDER BY a.id`,
    [userId],
  );
}

export async function createAlert(
  db: Db,
  userId: number,
  input: { card_id: number; target_price: number; condition: 'below' | 'above'; currency: string },
): Promise<Alert> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const [count] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM price_alerts WHERE user_id = $1', [userId]);
    if (count!.n >= MAX_ALERTS_PER_USER)
      throw new DomainError('invalid', `At most ${MAX_ALERTS_PER_USER} alerts per account; delete some first`);
    const [card] = await tx.query<{ id: number }>('SELECT id FROM cards WHERE id = $1', [input.card_id]);
    if (!card) throw new NotFound('Card');
    const [row] = await tx.query<{ id: number }>(
      'INSERT INTO price_alerts (user_id, card_id, target_price, condition, currency) VALUES ($1, $2, $3, $4, $5) RETURNING id',
      [userId, input.card_id, input.target_price, input.condition, input.currency],
    );
    const [alert] = await tx.query<Alert>(`SELECT ${ALERT_COLUMNS} FROM price_alerts a JOIN cards c ON c.id = a.card_id WHERE a.id = $1`, [
      row!.id,
    ]);
    return alert!;
  });
}

export async function deleteAlert(db: Db, userId: number, alertId: number): Promise<boolean> {
  return (await db.query('DELETE FROM price_alerts WHERE id = $1 AND user_id = $2 RETURNING id', [alertId, userId])).length === 1;
}
