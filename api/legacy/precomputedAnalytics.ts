// The per-card ClickHouse answers precomputed when prices land (ingest/analytics/precompute.ts),
// as an Analytics: a request reads its card's answers from PostgreSQL once, and each query the
// service runs is answered from them when it is the very question they were computed for (same
// query, same parameters), from ClickHouse otherwise (a variant filter matching several variants,
// a source filter, a card nothing was precomputed for). They are used only under the prices epoch
// they were computed under, or while the next precompute runs.
import type { Analytics } from '../../sql/stores/analytics.js';
import type { Db } from '../../sql/stores/db.js';
import { answerKey, cardAnalyticsOfCard, PRECOMPUTED_QUERIES } from '../../sql/cardAnalytics.js';
import { sqlFile } from '../../sql/sqlFile.js';

export type PrecomputedAnalytics = {
  /** An Analytics for the requests about one card; `stats` counts what was answered from where. */
  forCard(cardId: number): Promise<Analytics>;
  stats: { precomputed: number; clickhouse: number };
};

export function precomputedAnalytics(db: Db, live: Analytics, pricesEpoch: () => string): PrecomputedAnalytics {
  const queryOfText = new Map<string, string>(PRECOMPUTED_QUERIES.map((q) => [sqlFile(`clickhouse/queries/${q}.sql`), q]));
  const stats = { precomputed: 0, clickhouse: 0 };
  return {
    stats,
    async forCard(cardId) {
      const epoch = pricesEpoch();
      const rows = await cardAnalyticsOfCard(db, cardId, PRECOMPUTED_QUERIES);
      const answers = new Map<string, Record<string, unknown[]>>();
      for (const r of rows)
        if (r.prices_epoch === epoch || r.pending) answers.set(r.query, JSON.parse(r.answers) as Record<string, unknown[]>);
      return {
        async rows<T>(text: string, params: Record<string, unknown> = {}): Promise<T[]> {
          const query = queryOfText.get(text);
          const answer = query === undefined ? undefined : answers.get(query)?.[answerKey(params)];
          if (answer) {
            stats.precomputed++;
            return answer as T[];
          }
          stats.clickhouse++;
          return live.rows<T>(text, params);
        },
      };
    },
  };
}
