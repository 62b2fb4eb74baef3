// Price alerts (spec: "Price alert"): one typed function per query file. Owners read them through
// the view price_alert_records (migration 013).
import { z } from 'zod';
import { AlertOut } from '../schemas/events.js';
import { pgQuery, rows } from './typedQuery.js';

const int = z.number().int();

// Rows have the contract's own shape (schemas/events.ts).
export const AlertRow = AlertOut;
export type AlertRow = z.infer<typeof AlertRow>;

/** An account's alerts, oldest first. */
export const alertsOf = pgQuery<[userId: number], typeof AlertRow>('alerts/alerts_of_account', AlertRow);
/** One alert. */
export const alertById = pgQuery<[alertId: number], typeof AlertRow>('alerts/alert_by_id', AlertRow);
/** Locks an account's row for the rest of the transaction, so caps counted under it hold. */
export const lockAccount = pgQuery<[userId: number], typeof rows.id>('alerts/account_lock', rows.id);
/** How many alerts an account has. */
export const alertCount = pgQuery<[userId: number], typeof rows.count>('alerts/alert_count', rows.count);
/** A new alert; its id. */
export const insertAlert = pgQuery<
  [userId: number, cardId: number, targetPrice: number, condition: 'below' | 'above', currency: string],
  typeof rows.id
>('alerts/alert_create', rows.id);
/** Deletes an own alert: a row when it was the account's. */
export const deleteAlertOf = pgQuery<[alertId: number, userId: number], typeof rows.id>('alerts/alert_delete', rows.id);

const CardId = z.object({ card_id: int });
/** The cards among these that have an armed alert. */
export const cardsWithArmedAlert = pgQuery<[cardIds: number[]], typeof CardId>('alerts/alert_cards_armed', CardId);

const Triggered = AlertRow.extend({
  user_id: int,
  username: z.string(),
  email: z.string().nullable(),
  email_alerts: z.boolean(),
  market_price: z.number(),
});
export type TriggeredAlertRow = z.infer<typeof Triggered>;
/** Triggers the armed alerts the prices cross (each exactly once); them with owner and crossing price. */
export const triggerAlertsCrossed = pgQuery<[cardIds: number[], prices: number[], currencies: string[]], typeof Triggered>(
  'alerts/alerts_trigger_crossed',
  Triggered,
);

/** An armed alert of the user on the same card, direction, target and currency, if any. */
export const duplicateAlert = pgQuery<
  [userId: number, cardId: number, condition: string, targetPrice: number, currency: string],
  typeof rows.id
>('alerts/alert_duplicate', rows.id);
