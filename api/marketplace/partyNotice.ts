// What a party of a transaction is told when it moves: a notification and an e-mail.
import type { Db } from '../../sql/stores/db.js';
import { accountById } from '../../sql/accounts.js';
import { recordNotice } from '../../ingest/events/notify.js';

/** Tells a party of a transaction what happened: a notification and an e-mail. */
export async function notifyParty(tx: Db, partyId: number, transactionId: number, title: string, body: string): Promise<void> {
  const [party] = await accountById(tx, partyId);
  await recordNotice(tx, {
    userId: partyId,
    kind: 'transaction',
    title,
    body,
    data: { transaction_id: transactionId },
    email: party?.email ? { to: party.email, subject: title, text: `${body}\n\nSee the transaction in your Holo account.` } : null,
  });
}
