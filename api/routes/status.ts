// The status page (spec: GET /api/status/checks and /api/status/incidents, public) and the
// operators' live screen (GET /admin/status/stream, admin, server-sent events).
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../http/route.js';
import { statusEventStream } from '../status/eventStream.js';
import { incidentHistory } from '../status/incidents.js';
import { z } from '../../schemas/common.js';
import { IncidentList, IncidentsQuery, StatusChecks } from '../../schemas/status.js';

const tags = ['status'];

export const statusRoutes = (deps: AppDeps) => [
  defineRoute({
    method: 'get',
    path: '/api/status/checks',
    summary: 'The latest result of every status check (this instance runs them every interval_s)',
    description:
      'Stores answer a probe within 2 s (degraded past 500 ms); freshness: feeds checked within 7 h ok, 13 h degraded, else down; queues: oldest waiting item under 10 min ok, 1 h degraded, else down (e-mail without an SMTP server: ok, outbox only). Served from memory: no query per call.',
    tags,
    response: StatusChecks,
    maxAge: 5,
    handler: async () => {
      const snapshot = deps.status.snapshot();
      return snapshot.checked_at ? snapshot : deps.status.runOnce();
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/status/incidents',
    summary: 'Incidents, newest first: periods in which a check was not ok',
    description:
      'An incident opens when a check is not ok on two runs in a row and resolves after two ok runs; severity is the worst seen while open.',
    tags,
    query: IncidentsQuery,
    response: IncidentList,
    handler: ({ query }) => incidentHistory(deps.db, query),
  }),
  defineRoute({
    method: 'get',
    path: '/admin/status/stream',
    summary: 'Live status for an operator’s screen (server-sent events)',
    description:
      'Events: `checks` (data: StatusChecks) at once and after every run, `incident` (data: Incident) when one opens or resolves; a comment every 15 s.',
    tags: ['admin'],
    access: 'admin',
    produces: 'event-stream',
    response: z.string().openapi({ description: 'text/event-stream' }),
    handler: async () => statusEventStream(deps.status),
  }),
];
