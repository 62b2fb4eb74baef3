// The e-mail outbox as operators read it: what was queued, sent or failed, and whether SMTP is set
// (without it the outbox is where development reads the mail).
import type { AppDeps } from '../deps.js';
import { newestOutboxMessages } from '../../sql/outbox.js';

/** The newest `limit` e-mails of the outbox. */
export async function newestOutbox({ db, config }: Pick<AppDeps, 'db' | 'config'>, limit: number) {
  return { smtp_configured: config.smtpUrl !== undefined, items: await newestOutboxMessages(db, limit) };
}
