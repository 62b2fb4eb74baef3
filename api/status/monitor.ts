// The status monitor: every interval it probes the stores, ingestion in this process, each
// source's feed freshness and the outbound queues, keeps the latest result in memory (what
// /api/status/checks and the operators' event stream serve, so a status page costs no query), and
// opens and resolves incidents in PostgreSQL from it.
//
// An incident opens when a check is not ok twice in a row and resolves when it is ok twice in a
// row, so one slow probe opens nothing. Its times are the first observation of each change.
// Incident writes wait in order in memory while PostgreSQL cannot take them (its own outage is an
// incident too) and are written when it can.
import type { Config } from '../../schemas/config.js';
import type { Logger } from '../../sql/runtime/log.js';
import type { Analytics } from '../../sql/stores/analytics.js';
import type { Db } from '../../sql/stores/db.js';
import type { RedisStore } from '../../sql/stores/redis.js';
import type { IngestionState } from '../../workflows/ingestion.js';
import { probeStores, PROBE_TIMEOUT_MS, type ProbeResult } from './probes.js';
import { errorFields } from '../../sql/runtime/log.js';
import { feedFreshness, incidentById, openIncident, queueLag, resolveIncident } from '../../sql/status.js';
import { EMAIL_MAX_ATTEMPTS } from '../../ingest/events/email.js';
import type { CheckStatus, Incident, StatusCheck, StatusChecks } from '../../schemas/status.js';
import type { z } from 'zod';

type Check = z.infer<typeof StatusCheck>;
export type Snapshot = z.infer<typeof StatusChecks>;
export type IncidentRecord = z.infer<typeof Incident>;

export type StatusEvent =
  | { kind: 'checks'; snapshot: Snapshot }
  | { kind: 'incident'; incident: IncidentRecord }
  /** The monitor stops (the server is shutting down): event streams end. */
  | { kind: 'end' };

export type StatusMonitor = {
  /** Starts the interval (the API server does, when it starts serving). */
  start(): void;
  snapshot(): Snapshot;
  /** Runs every check now (the timer does this every interval). */
  runOnce(): Promise<Snapshot>;
  /** Called after every run and for every incident opened or resolved; returns the unsubscribe. */
  subscribe(listener: (event: StatusEvent) => void): () => void;
  stop(): Promise<void>;
};

/** A store probe slower than this is degraded. */
const SLOW_PROBE_MS = 500;
/** Feeds are scraped every 6 hours: one missed run (with an hour's slack) is degraded, two down. */
const FRESH_S = 7 * 3600;
const STALE_S = 13 * 3600;
/** Oldest waiting e-mail or webhook delivery: degraded past 10 minutes, down past an hour. */
const QUEUE_DEGRADED_S = 600;
const QUEUE_DOWN_S = 3600;
/** Incident writes kept while PostgreSQL is away; the oldest are dropped past this (and logged). */
const MAX_PENDING_WRITES = 1_000;

type Observation = Omit<Check, 'since'>;

const OUTBOX_ONLY: Observation = {
  name: 'queue:email',
  label: 'E-mail delivery',
  status: 'ok',
  detail: 'outbox only: no SMTP server configured (HOLO_SMTP_URL); operators read it at GET /api/admin/outbox',
  latency_ms: null,
};

/** A store's probe as a check: slow is degraded; never the store's own error text (the checks are
 *  public and it may name hosts). */
function storeCheck(name: string, label: string, p: ProbeResult): Observation {
  if (p.outcome === 'answered')
    return {
      name,
      label,
      status: p.latency_ms > SLOW_PROBE_MS ? 'degraded' : 'ok',
      detail: p.latency_ms > SLOW_PROBE_MS ? `slow: answered in ${Math.round(p.latency_ms)} ms` : 'answering',
      latency_ms: p.latency_ms,
    };
  return {
    name,
    label,
    status: 'down',
    detail: p.outcome === 'timeout' ? `no answer within ${PROBE_TIMEOUT_MS / 1000} s` : 'unreachable',
    latency_ms: null,
  };
}

const hours = (s: number) => (s < 3600 ? `${Math.max(1, Math.round(s / 60))} min` : `${Math.round((s / 3600) * 10) / 10} h`);
const byAge = (age: number, degradedAfter: number, downAfter: number): CheckStatus =>
  age > downAfter ? 'down' : age > degradedAfter ? 'degraded' : 'ok';
const WORST: Record<CheckStatus, number> = { ok: 0, degraded: 1, down: 2 };

type PendingWrite =
  | { kind: 'open'; check: string; title: string; severity: 'degraded' | 'down'; detail: string; openedAt: string; seenAt: string }
  | { kind: 'resolve'; check: string; at: string };

/** What the monitor reads; the API's deps object itself, so it sees ingestion once main.ts sets it. */
export type MonitorDeps = {
  config: Pick<Config, 'statusIntervalSeconds' | 'smtpUrl'>;
  log: Logger;
  db: Db;
  analytics: Analytics;
  stores: { redis: RedisStore };
  ingestion: (() => IngestionState) | null;
};

export function createStatusMonitor(deps: MonitorDeps): StatusMonitor {
  const intervalS = deps.config.statusIntervalSeconds;
  const listeners = new Set<(event: StatusEvent) => void>();
  const emit = (event: StatusEvent) => {
    for (const listener of listeners) listener(event);
  };
  // Per check: current status, since when, and how many runs in a row it has had it.
  const streaks = new Map<string, { status: CheckStatus; since: string; runs: number }>();
  let pending: PendingWrite[] = [];
  let latest: Snapshot = { status: 'ok', checked_at: null, interval_s: intervalS, checks: [] };

  const storeChecks = async () => {
    const probes = await probeStores(deps);
    return [
      storeCheck('postgres', 'PostgreSQL', probes.postgres),
      storeCheck('clickhouse', 'ClickHouse', probes.clickhouse),
      storeCheck('redis', 'Redis', probes.redis),
    ];
  };

  const ingestionCheck = (): Observation[] => {
    const state = deps.ingestion?.();
    if (!state) return []; // ingestion runs in another process, which reports it
    const status: CheckStatus = state.state === 'up' ? 'ok' : state.state === 'degraded' ? 'down' : 'degraded';
    const detail =
      state.state === 'up'
        ? 'worker and schedules running'
        : `${state.state}${state.step ? ` (${state.step})` : ''}${state.failures ? `, ${state.failures} failed attempts` : ''}`;
    return [{ name: 'temporal', label: 'Ingestion (Temporal)', status, detail, latency_ms: null }];
  };

  // Freshness and queues come from PostgreSQL: when it is down they are unknown, not failing.
  const dataChecks = async (): Promise<Observation[]> => {
    try {
      const [fresh, [lag]] = await Promise.all([feedFreshness(deps.db), queueLag(deps.db, EMAIL_MAX_ATTEMPTS)]);
      const feeds = fresh.map((f): Observation => ({
        name: `freshness:${f.source}`,
        label: `Prices from ${f.source}`,
        status: byAge(f.age_s, FRESH_S, STALE_S),
        detail: `feeds last checked ${hours(f.age_s)} ago (every 6 h)`,
        latency_ms: null,
      }));
      const queue = (name: string, label: string, age: number | null): Observation => ({
        name,
        label,
        status: age === null ? 'ok' : byAge(age, QUEUE_DEGRADED_S, QUEUE_DOWN_S),
        detail: age === null ? 'nothing waiting' : `oldest waiting ${hours(age)}`,
        latency_ms: null,
      });
      return [
        ...feeds,
        // Without an SMTP server the outbox is where e-mail ends (the documented default): what
        // waits there is kept for operators, not late, so it degrades nothing.
        deps.config.smtpUrl ? queue('queue:email', 'E-mail delivery', lag?.email_s ?? null) : OUTBOX_ONLY,
        queue('queue:webhooks', 'Webhook delivery', lag?.webhook_s ?? null),
      ];
    } catch {
      return [];
    }
  };

  const incidentWrites = (checks: Check[], at: string) => {
    for (const c of checks) {
      const streak = streaks.get(c.name)!;
      if (streak.status !== 'ok' && streak.runs >= 2)
        pending.push({
          kind: 'open',
          check: c.name,
          title: `${c.label} ${streak.status === 'down' ? 'down' : 'degraded'}`,
          severity: streak.status,
          detail: c.detail,
          openedAt: streak.since,
          seenAt: at,
        });
      // Exactly at two ok runs: also after a restart, which forgot what it had opened before.
      if (streak.status === 'ok' && streak.runs === 2) pending.push({ kind: 'resolve', check: c.name, at: streak.since });
    }
    if (pending.length > MAX_PENDING_WRITES) {
      deps.log.warn('status: incident writes dropped while PostgreSQL was away', { dropped: pending.length - MAX_PENDING_WRITES });
      pending = pending.slice(-MAX_PENDING_WRITES);
    }
  };

  const flush = async () => {
    while (pending.length) {
      const w = pending[0]!;
      try {
        const changed =
          w.kind === 'open'
            ? (await openIncident(deps.db, w.check, w.title, w.severity, w.detail, w.openedAt, w.seenAt)).filter((r) => r.opened)
            : await resolveIncident(deps.db, w.check, w.at);
        pending.shift();
        for (const row of changed) {
          const [incident] = await incidentById(deps.db, row.id);
          if (incident) emit({ kind: 'incident', incident });
        }
      } catch (err) {
        deps.log.debug('status: incident write deferred', errorFields(err));
        return;
      }
    }
  };

  let running: Promise<Snapshot> | null = null;
  const run = async (): Promise<Snapshot> => {
    const at = new Date().toISOString();
    const observed = [...(await storeChecks()), ...ingestionCheck(), ...(await dataChecks())];
    const checks = observed.map((o): Check => {
      const previous = streaks.get(o.name);
      const streak = previous?.status === o.status ? { ...previous, runs: previous.runs + 1 } : { status: o.status, since: at, runs: 1 };
      streaks.set(o.name, streak);
      return { ...o, since: streak.since };
    });
    incidentWrites(checks, at);
    await flush();
    const worst = checks.reduce<CheckStatus>((w, c) => (WORST[c.status] > WORST[w] ? c.status : w), 'ok');
    latest = { status: worst, checked_at: at, interval_s: intervalS, checks };
    emit({ kind: 'checks', snapshot: latest });
    return latest;
  };
  const runOnce = () => {
    // One run at a time: a call during a run waits for that run.
    running ??= run().finally(() => {
      running = null;
    });
    return running;
  };

  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    runOnce().catch((err: unknown) => deps.log.warn('status: checks failed', errorFields(err)));
  };

  return {
    start() {
      if (timer) return;
      timer = setInterval(tick, intervalS * 1000);
      timer.unref();
      tick();
    },
    snapshot: () => latest,
    runOnce,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
      emit({ kind: 'end' });
      listeners.clear();
    },
  };
}
