// The e-mail outbox as operators read it; rows have the contract's OutboxMessage shape.
import { OutboxMessage } from '../schemas/events.js';
import { pgQuery } from './typedQuery.js';

/** The newest `limit` e-mails of the outbox. */
export const newestOutboxMessages = pgQuery<[limit: number], typeof OutboxMessage>('outbox/email_outbox_newest', OutboxMessage);
