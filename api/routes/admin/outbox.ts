// The e-mail outbox for operators: what was queued, sent or failed. Without SMTP configured it
// is where development reads the mail.
import type { AppDeps } from '../../deps.js';
import { newestOutbox } from '../../events/outbox.js';
import { defineRoute } from '../../http/route.js';
import { OutboxList, OutboxQuery } from '../../../schemas/events.js';

export const adminOutboxRoutes = (deps: AppDeps) => [
  defineRoute({
    method: 'get',
    path: '/api/admin/outbox',
    summary: 'Newest e-mails of the outbox (alerts, digests)',
    tags: ['admin'],
    access: 'admin',
    query: OutboxQuery,
    response: OutboxList,
    handler: ({ query }) => newestOutbox(deps, query.limit),
  }),
];
