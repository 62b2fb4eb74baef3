// The e-mail outbox for operators: what was queued, sent or failed. Without SMTP configured it
// is where development reads the mail.
import type { AppDeps } from '../../deps.js';
import { utcIsoSql } from '../../../sql/stores/db.js';
import { defineRoute } from '../../http/route.js';
import { OutboxList, OutboxMessage, OutboxQuery } from '../../../schemas/events.js';
import type { z } from 'zod';

export const adminOutboxRoutes = (deps: AppDeps) => [
  defineRoute({
    method: 'get',
    path: '/api/admin/outbox',
    summary: 'Newest e-mails of the outbox (alerts, digests)',
    tags: ['admin'],
    access: 'admin',
    query: OutboxQuery,
    response: OutboxList,
    handler: async ({ query }) => ({
      smtp_configured: deps.config.smtpUrl !== undefined,
      items: await deps.db.query<z.infer<typeof OutboxMessage>>(
        `SELECT id::int AS id, to_address, kind, subject, body_text, ${utcIsoSql('created_at')} AS created_at, ${utcIsoSql('sent_at')} AS sent_at, attempts, last_error
         FROM email_outbox ORDER BY id DESC LIMIT $1`,
        [query.limit],
      ),
    }),
  }),
];
