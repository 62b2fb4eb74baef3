// /api/health: live request counters, a ping of every store and the state of in-process
// ingestion. 200 with status "ok" or "degraded" (what is down is in the body), so operators always
// get the numbers.
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../http/route.js';
import { probeStores, type ProbeResult } from '../status/probes.js';
import { z } from '../../schemas/common.js';

const StoreHealth = z.object({ ok: z.boolean(), kind: z.string(), latency_ms: z.number() });
const HealthResponse = z
  .object({
    status: z.enum(['ok', 'degraded']),
    version: z.string(),
    uptime_s: z.number(),
    requests: z.object({ total: z.number().int(), in_flight: z.number().int(), by_status: z.record(z.string(), z.number().int()) }),
    stores: z.object({ postgres: StoreHealth, clickhouse: StoreHealth, redis: StoreHealth }),
    prices_epoch: z.string(),
    ingestion: z
      .object({
        state: z.enum(['off', 'starting', 'up', 'degraded', 'stopped']),
        step: z.string().nullable(),
        error: z.string().nullable(),
        failures: z.number().int(),
        since: z.string().nullable(),
      })
      .openapi({
        description:
          "ingestion in this process: 'off' when it runs elsewhere (a worker service) or HOLO_INGEST=off; while not up, the step being retried and its last error. Ingestion coming up or failing never stops the API.",
      }),
    stream: z
      .object({
        connections: z.number().int(),
        subscriptions: z.number().int(),
        delivered: z.number().int(),
        dropped_slow: z.number().int(),
        reaped: z.number().int(),
      })
      .openapi({
        description:
          "this instance's WebSocket price stream: open connections, card subscriptions, updates delivered, slow consumers dropped, dead connections reaped",
      }),
  })
  .openapi('Health');

export const healthRoutes = (deps: AppDeps, version: string) => [
  defineRoute({
    method: 'get',
    path: '/api/health',
    summary: 'Liveness, store reachability and live request counters',
    tags: ['service'],
    response: HealthResponse,
    handler: async () => {
      const { stores, counters } = deps;
      const probes = await probeStores(deps);
      const health = (kind: string, p: ProbeResult) => ({ ok: p.outcome === 'answered', kind, latency_ms: p.latency_ms });
      const [postgres, clickhouse, redis] = [
        health(stores.pg.kind, probes.postgres),
        health(stores.ch.kind, probes.clickhouse),
        health(stores.redis.kind, probes.redis),
      ];
      const ingestion = deps.ingestion?.() ?? { state: 'off' as const, step: null, error: null, failures: 0, since: null };
      return {
        status: postgres.ok && clickhouse.ok && redis.ok && ingestion.state !== 'degraded' ? ('ok' as const) : ('degraded' as const),
        version,
        uptime_s: Math.round((Date.now() - counters.startedAt) / 1000),
        requests: { total: counters.total, in_flight: counters.inFlight, by_status: counters.byStatus },
        stores: { postgres, clickhouse, redis },
        prices_epoch: deps.cache.epoch(),
        ingestion,
        stream: deps.stream.stats(),
      };
    },
  }),
];
