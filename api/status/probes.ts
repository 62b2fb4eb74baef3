// Each store answering a trivial request, timed: what /api/health reports live and what the status
// monitor grades every interval.
import type { Analytics } from '../../sql/stores/analytics.js';
import type { Db } from '../../sql/stores/db.js';
import type { RedisStore } from '../../sql/stores/redis.js';

/** A probe answers within this, or counts as a timeout. */
export const PROBE_TIMEOUT_MS = 2_000;

export type ProbeResult = { outcome: 'answered' | 'failed' | 'timeout'; latency_ms: number };

async function timedProbe(run: () => Promise<unknown>): Promise<ProbeResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    run().then(
      () => 'answered' as const,
      () => 'failed' as const,
    ),
    new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), PROBE_TIMEOUT_MS);
    }),
  ]);
  clearTimeout(timer);
  return { outcome, latency_ms: Math.round((performance.now() - started) * 100) / 100 };
}

export type StoreProbes = Record<'postgres' | 'clickhouse' | 'redis', ProbeResult>;

/** PostgreSQL and ClickHouse each run SELECT 1, Redis answers a PING; all at once. */
export async function probeStores(deps: { db: Db; analytics: Analytics; stores: { redis: RedisStore } }): Promise<StoreProbes> {
  const [postgres, clickhouse, redis] = await Promise.all([
    timedProbe(() => deps.db.query('SELECT 1')),
    timedProbe(() => deps.analytics.rows('SELECT 1')),
    timedProbe(async () => {
      if (!(await deps.stores.redis.ping())) throw new Error('no pong');
    }),
  ]);
  return { postgres, clickhouse, redis };
}
