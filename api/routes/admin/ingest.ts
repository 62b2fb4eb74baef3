// Operator endpoints over ingestion (admin): the HTTP face of workflows/operations.ts, which the
// `npm run ingest` CLI uses too, plus the quarantine in ClickHouse.
import type { AppDeps } from '../../deps.js';
import { errorFields, type Logger } from '../../../sql/runtime/log.js';
import { ValidationError } from '../../http/errors.js';
import { defineRoute } from '../../http/route.js';
import { crossSourceFlagsOf, rejectsOf } from '../../admin/quarantine.js';
import { presentCrossSourceFlags, presentRejects } from '../../admin/quarantinePresenter.js';
import { requireCorrelatedCard } from '../../admin/correlation.js';
import {
  PauseBody,
  RejectsQuery,
  CrossSourceFlagsQuery,
  CrossSourceFlagsResponse,
  RejectsResponse,
  RunDetail,
  RunList,
  RunListQuery,
  RunParams,
  ScheduleList,
  StartedRun,
  StartRunBody,
  CorrelateCardParams,
  SourcesResponse,
} from '../../../schemas/admin.js';
import { sourcesReport } from '../../../ingest/upstreams/sources.js';
import { NoMatchingFeedError, UnknownRunError } from '../../../workflows/operations.js';
import { DomainError, NotFound } from '../../../schemas/errors.js';

export const INGESTION_UNAVAILABLE = 'holo_ingestion_unavailable';

// Temporal being unreachable is a 503 of its own: the data stores may be fine. Why is logged,
// for the operator who gets the 503.
async function temporal<T>(log: Logger, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof UnknownRunError) throw new NotFound('run');
    if (err instanceof NoMatchingFeedError) throw new ValidationError([{ loc: ['body', 'source'], msg: err.message, type: 'value_error' }]);
    if (err instanceof DomainError) throw err;
    log.warn('temporal call failed', errorFields(err));
    throw new DomainError('unavailable', INGESTION_UNAVAILABLE);
  }
}

const common = { tags: ['admin'], access: 'admin' as const };

export const adminIngestRoutes = (deps: AppDeps) => [
  defineRoute({
    ...common,
    method: 'post',
    path: '/api/admin/ingest/runs',
    summary: 'Start an ingestion run (scrape, catalogue or fx) now',
    body: StartRunBody,
    response: StartedRun,
    status: 202,
    errors: [503],
    handler: ({ body }) => temporal(deps.log, () => deps.ingest.start(body)),
  }),
  defineRoute({
    ...common,
    method: 'get',
    path: '/api/admin/ingest/runs',
    summary: 'Recent ingestion runs, newest first',
    query: RunListQuery,
    response: RunList,
    errors: [503],
    handler: async ({ query }) => ({ items: await temporal(deps.log, () => deps.ingest.list(query.limit)) }),
  }),
  defineRoute({
    ...common,
    method: 'get',
    path: '/api/admin/ingest/runs/{workflow_id}',
    summary: 'One run: status, live progress (rows fetched, parsed, loaded, flagged and rejected per feed) and result or failure',
    params: RunParams,
    response: RunDetail,
    errors: [404, 503],
    handler: ({ params }) => temporal(deps.log, () => deps.ingest.describe(params.workflow_id)),
  }),
  defineRoute({
    ...common,
    method: 'get',
    path: '/api/admin/ingest/sources',
    summary:
      'Every upstream source: its URL, whether its credentials are set (a source without its required credentials is off), and per feed the last success, rows, freshness and last failure',
    response: SourcesResponse,
    handler: async () => ({ items: await sourcesReport(deps.stores.pg.pool, deps.config.upstreams) }),
  }),
  defineRoute({
    ...common,
    method: 'get',
    path: '/api/admin/ingest/schedules',
    summary: 'The ingestion schedules: interval, next run, paused or not',
    response: ScheduleList,
    errors: [503],
    handler: async () => ({ items: await temporal(deps.log, () => deps.ingest.schedules()) }),
  }),
  ...(['pause', 'resume'] as const).map((action) =>
    defineRoute({
      ...common,
      method: 'post',
      path: `/api/admin/ingest/schedules/${action}`,
      summary: `${action === 'pause' ? 'Pause' : 'Resume'} every ingestion schedule`,
      body: PauseBody,
      response: ScheduleList,
      errors: [503],
      handler: async ({ body }) => ({
        items: await temporal(deps.log, () => deps.ingest.setPaused(action === 'pause', body.note ?? `${action}d by an operator (API)`)),
      }),
    }),
  ),
  defineRoute({
    ...common,
    method: 'get',
    path: '/api/admin/ingest/rejects',
    summary: 'Quarantined feed rows with the reason, and counts per reason',
    query: RejectsQuery,
    response: RejectsResponse,
    errors: [503],
    handler: async ({ query }) => presentRejects(await rejectsOf(deps.analytics, query)),
  }),
  defineRoute({
    ...common,
    method: 'get',
    path: '/api/admin/ingest/cross-source-flags',
    summary:
      "Cross-source outlier flags per day, feed and price source: a source whose prices disagree with the other sources' (a wrong product mapping) shows as a jump",
    query: CrossSourceFlagsQuery,
    response: CrossSourceFlagsResponse,
    errors: [503],
    handler: async ({ query }) => presentCrossSourceFlags(await crossSourceFlagsOf(deps.analytics, query), query),
  }),
  defineRoute({
    ...common,
    method: 'post',
    path: '/api/price-intelligence/correlate',
    summary: 'Re-run the cross-source correlation of every card (a correlateSources run; progress at /api/admin/ingest/runs/{workflow_id})',
    description:
      "Per card: the variant most sources price, each source's 30-day median in USD, the consensus (weighted median) and the sources more than 15 % off it; kept per card and shown in /api/price-intelligence/card/{id}'s correlation_notes.",
    response: StartedRun,
    status: 202,
    errors: [503],
    handler: () => temporal(deps.log, () => deps.ingest.startCorrelation(null)),
  }),
  defineRoute({
    ...common,
    method: 'post',
    path: '/api/price-intelligence/correlate/{card_id}',
    summary: 'Re-run the cross-source correlation of one card',
    params: CorrelateCardParams,
    response: StartedRun,
    status: 202,
    errors: [404, 503],
    // Two calls: the card is looked up outside `temporal`, so a PostgreSQL outage stays a store 503, not Temporal's.
    handler: async ({ params }) => {
      await requireCorrelatedCard(deps.db, params.card_id);
      return temporal(deps.log, () => deps.ingest.startCorrelation(params.card_id));
    },
  }),
  defineRoute({
    ...common,
    method: 'post',
    path: '/api/price-intelligence/fx/update',
    summary: "Fetch and load today's euro reference rates now (starts an fxRates run)",
    response: StartedRun,
    status: 202,
    errors: [503],
    handler: () => temporal(deps.log, () => deps.ingest.start({ kind: 'fx' })),
  }),
];
