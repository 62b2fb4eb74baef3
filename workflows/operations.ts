// What operators do with ingestion, in one place for the CLI and the admin HTTP endpoints: start
// runs, read their progress and summaries, list and pause the schedules. Talks to Temporal only.
import { Client, Connection, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { feedPairs } from '../ingest/upstreams/registry.js';
import { TASK_QUEUE, workflowIds } from './shared.js';
import { SCHEDULE_IDS } from './schedules.js';
import { PROGRESS_QUERY, type CatchUpProgress, type CorrelationProgress, type ScrapeProgress } from './shared.js';

export const RUN_KINDS = ['scrape', 'catalogue', 'fx'] as const;
export type RunKind = (typeof RUN_KINDS)[number];

const WORKFLOW_TYPES: Record<RunKind, string> = { scrape: 'scrapeAll', catalogue: 'catalogueSync', fx: 'fxRates' };
const INGESTION_TYPES = [...Object.values(WORKFLOW_TYPES), 'ingestSource', 'correlateSources', 'catchUp'];

/** How long a run's status read waits for its worker to answer the progress query. */
const PROGRESS_QUERY_MS = 2_000;

export type RunStatus =
  'RUNNING' | 'COMPLETED' | 'FAILED' | 'CANCELLED' | 'TERMINATED' | 'CONTINUED_AS_NEW' | 'TIMED_OUT' | 'UNKNOWN' | 'UNSPECIFIED';

export type RunListItem = { workflow_id: string; type: string; status: RunStatus; started_at: string; closed_at: string | null };
export type RunDetail = RunListItem & {
  progress: ScrapeProgress | CorrelationProgress | CatchUpProgress | null;
  result: unknown;
  failure: string | null;
};
export type ScheduleState = {
  id: string;
  paused: boolean;
  every_hours: number;
  next_run_at: string | null;
  runs_so_far: number;
  note: string | null;
};

export class UnknownRunError extends Error {}
export class NoMatchingFeedError extends Error {}

export type StartRun = { kind: RunKind; day?: string; source?: string; game?: string; suffix?: string };

/**
 * Sends what waits in the e-mail outbox in a workflow of its own, so neither a request nor a price
 * load waits on an SMTP server. `stamp` names the run (a retried caller reuses it).
 */
export async function startEmailOutbox(client: Client, stamp: string): Promise<void> {
  await client.workflow
    .start('emailOutbox', { taskQueue: TASK_QUEUE, workflowId: workflowIds.emailOutbox(stamp), args: [] })
    .catch((err) => {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    });
}

/**
 * Sends what waits in the push outbox, retries included, in a workflow of its own (pushOutbox).
 * Several runs at once share the work: each push is claimed by one.
 */
export async function startPushOutbox(client: Client, stamp: string): Promise<void> {
  await client.workflow.start('pushOutbox', { taskQueue: TASK_QUEUE, workflowId: workflowIds.pushOutbox(stamp), args: [] }).catch((err) => {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  });
}

/**
 * Runs a schedule's workflow now unless a run of it is going: the schedule's own overlap policy
 * (SKIP) decides, so a start, a restart, images:fetch and the daily run never run two at once. The
 * schedule's id (its runs are listed under it).
 */
async function runScheduleNow(client: Client, scheduleId: string): Promise<string> {
  await client.schedule.getHandle(scheduleId).trigger('SKIP');
  return scheduleId;
}

/** Brings the recognition index up to date with the image store (a no-op for unchanged pictures). */
export const startRecognitionIndex = (client: Client): Promise<string> => runScheduleNow(client, SCHEDULE_IDS.recognitionIndex);

/** Brings the bulk export files up to date with the stores (a no-op for unchanged data sets). */
export const startBulkExport = (client: Client): Promise<string> => runScheduleNow(client, SCHEDULE_IDS.bulkExport);

export class IngestOperations {
  #client: Promise<Client> | null = null;

  constructor(
    private readonly address: string,
    private readonly namespace: string,
  ) {}

  /** Connects on first use, so an API without a reachable Temporal still serves everything else. */
  client(): Promise<Client> {
    this.#client ??= Connection.connect({ address: this.address, connectTimeout: '5 seconds' })
      .then((connection) => new Client({ connection, namespace: this.namespace }))
      .catch((err) => {
        this.#client = null;
        throw err;
      });
    return this.#client;
  }

  async start(run: StartRun): Promise<{ workflow_id: string; type: string }> {
    const client = await this.client();
    const day = run.day ?? new Date().toISOString().slice(0, 10);
    const stamp = `manual-${Date.now()}${run.suffix ?? ''}`;
    const type = WORKFLOW_TYPES[run.kind];
    let workflowId: string;
    let args: unknown[];
    if (run.kind === 'scrape') {
      const pairs = feedPairs().filter((p) => (!run.source || p.source === run.source) && (!run.game || p.game === run.game));
      if (pairs.length === 0)
        throw new NoMatchingFeedError(
          `no feed matches; feeds: ${feedPairs()
            .map((p) => `${p.source}/${p.game}`)
            .join(', ')}`,
        );
      workflowId = `${workflowIds.scrapeAll(day)}/${stamp}`;
      args = [{ asOf: day, pairs, concurrency: 2 }];
    } else if (run.kind === 'fx') {
      workflowId = `${workflowIds.fxRates(day)}/${stamp}`;
      args = [{ batchId: `ecb/${day}` }];
    } else {
      workflowId = `${workflowIds.catalogueSync(day)}/${stamp}`;
      args = [];
    }
    await client.workflow.start(type, { args, taskQueue: TASK_QUEUE, workflowId });
    return { workflow_id: workflowId, type };
  }

  /** Starts a cross-source correlation of every card, or of one. */
  async startCorrelation(cardId: number | null): Promise<{ workflow_id: string; type: string }> {
    const client = await this.client();
    const workflowId = workflowIds.correlateSources(cardId, `manual-${Date.now()}`);
    await client.workflow.start('correlateSources', {
      args: [cardId === null ? {} : { cardId }],
      taskQueue: TASK_QUEUE,
      workflowId,
    });
    return { workflow_id: workflowId, type: 'correlateSources' };
  }

  async list(limit: number): Promise<RunListItem[]> {
    const client = await this.client();
    const out: RunListItem[] = [];
    const query = INGESTION_TYPES.map((t) => `WorkflowType = '${t}'`).join(' OR ');
    for await (const w of client.workflow.list({ query, pageSize: limit })) {
      out.push({
        workflow_id: w.workflowId,
        type: w.type,
        status: w.status.name as RunStatus,
        started_at: w.startTime.toISOString(),
        closed_at: w.closeTime?.toISOString() ?? null,
      });
      if (out.length >= limit) break;
    }
    return out;
  }

  /**
   * A run's status, with its live progress when its worker answers the progress query in time: a
   * worker busy with many runs answers queries late, and an operator's status read must not wait
   * for it (progress is then null; the status, from the server, is still there).
   */
  async describe(workflowId: string): Promise<RunDetail> {
    const client = await this.client();
    const handle = client.workflow.getHandle(workflowId);
    let d;
    try {
      d = await handle.describe();
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) throw new UnknownRunError(`run ${workflowId} not found`);
      throw err;
    }
    if (!INGESTION_TYPES.includes(d.type)) throw new UnknownRunError(`run ${workflowId} not found`);
    const status = d.status.name as RunStatus;
    const progress =
      d.type === 'scrapeAll' || d.type === 'correlateSources' || d.type === 'catchUp'
        ? await client
            .withDeadline(Date.now() + PROGRESS_QUERY_MS, () =>
              handle.query<ScrapeProgress | CorrelationProgress | CatchUpProgress>(PROGRESS_QUERY),
            )
            .catch(() => null)
        : null;
    let result: unknown = null;
    let failure: string | null = null;
    if (status !== 'RUNNING') {
      try {
        result = await handle.result();
      } catch (err) {
        const cause = (err as { cause?: { message?: string } }).cause;
        failure = cause?.message ?? (err as Error).message;
      }
    }
    return {
      workflow_id: workflowId,
      type: d.type,
      status,
      started_at: d.startTime.toISOString(),
      closed_at: d.closeTime?.toISOString() ?? null,
      progress,
      result,
      failure,
    };
  }

  async schedules(): Promise<ScheduleState[]> {
    const client = await this.client();
    // One describe per schedule, all at once: an operator's page should not wait on them in turn.
    const states = await Promise.all(
      Object.values(SCHEDULE_IDS).map(async (id): Promise<ScheduleState | null> => {
        try {
          const d = await client.schedule.getHandle(id).describe();
          return {
            id,
            paused: d.state.paused,
            every_hours: (d.spec.intervals?.[0]?.every ?? 0) / 3_600_000,
            next_run_at: d.info.nextActionTimes[0]?.toISOString() ?? null,
            runs_so_far: d.info.numActionsTaken,
            note: d.state.note ?? null,
          };
        } catch (err) {
          if (!scheduleGone(err)) throw err;
          return null;
        }
      }),
    );
    return states.filter((s): s is ScheduleState => s !== null);
  }

  async setPaused(paused: boolean, note: string): Promise<ScheduleState[]> {
    const client = await this.client();
    // Patched by their fixed ids, then described once: Temporal's describe of a schedule stalls
    // about 5 s now and then (1 in 280 calls in a probe here), and a describe round before the
    // patch as well made an operator's resume take over 10 s (npm run fuzz, seed 749071998).
    await Promise.all(
      Object.values(SCHEDULE_IDS).map(async (id) => {
        const handle = client.schedule.getHandle(id);
        try {
          await (paused ? handle.pause(note) : handle.unpause(note));
        } catch (err) {
          if (!scheduleGone(err)) throw err;
        }
      }),
    );
    return this.schedules();
  }

  async close(): Promise<void> {
    const client = await this.#client?.catch(() => null);
    await client?.connection.close();
  }
}

/** A schedule that does not exist (not created on this cluster, or deleted): skipped, not an error. */
const scheduleGone = (err: unknown) => (err as Error).name === 'ScheduleNotFoundError';

export function ingestOperations(config: { temporalAddress?: string; temporalPort: number; temporalNamespace: string }): IngestOperations {
  return new IngestOperations(config.temporalAddress ?? `127.0.0.1:${config.temporalPort}`, config.temporalNamespace);
}
