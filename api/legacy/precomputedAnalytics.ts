// The per-card ClickHouse answers precomputed when prices land (ingest/analytics/precompute.ts),
// as an Analytics: a request reads its card's answers from PostgreSQL once, and each query the
// service runs is answered from them when it is the very question they were computed for (same
// query, same parameters), from ClickHouse otherwise (a variant filter matching several variants,
// a source filter, a card nothing was precomputed for). They are used under the prices epoch they
// were computed under, or, as the previous epoch's answers, while the next precompute runs.
import type { Analytics } from '../../sql/stores/analytics.js';
import type { Db } from '../../sql/stores/db.js';
import { answerKey, cardAnalyticsOfCard, PRECOMPUTED_QUERIES } from '../../sql/cardAnalytics.js';
import { sqlFile } from '../../sql/sqlFile.js';

/** An Analytics for one card's requests, counting what it answered from where. */
export type CardAnalytics = Analytics & {
  used: { precomputed: number; clickhouse: number };
  /** The answers are the previous epoch's, standing in while the next precompute runs. */
  previousEpoch: boolean;
};

export type PrecomputedAnalytics = {
  /** An Analytics for the requests about one card. */
  forCard(cardId: number): Promise<CardAnalytics>;
  /**
   * One answer about a card, computed by `compute` from the card's precomputed answers; when those
   * are the previous epoch's (a precompute is running) and `compute` also needed ClickHouse, which
   * holds the new prices, it is computed again from ClickHouse alone: never a mix of two epochs.
   */
  answer<T>(cardId: number, compute: (analytics: Analytics) => Promise<T>): Promise<T>;
  /** What was answered from where, over every request. */
  stats: { precomputed: number; clickhouse: number };
};

export function precomputedAnalytics(db: Db, live: Analytics, pricesEpoch: () => string): PrecomputedAnalytics {
  const queryOfText = new Map<string, string>(PRECOMPUTED_QUERIES.map((q) => [sqlFile(`clickhouse/queries/legacyPrices/${q}.sql`), q]));
  const stats = { precomputed: 0, clickhouse: 0 };
  const forCard = async (cardId: number): Promise<CardAnalytics> => {
    const epoch = pricesEpoch();
    const rows = await cardAnalyticsOfCard(db, cardId, PRECOMPUTED_QUERIES);
    const answers = new Map<string, Record<string, unknown[]>>();
    let previousEpoch = false;
    for (const r of rows)
      if (r.prices_epoch === epoch || r.pending) {
        answers.set(r.query, JSON.parse(r.answers) as Record<string, unknown[]>);
        previousEpoch = r.prices_epoch !== epoch;
      }
    const used = { precomputed: 0, clickhouse: 0 };
    return {
      used,
      previousEpoch,
      async rows<T>(text: string, params: Record<string, unknown> = {}): Promise<T[]> {
        const query = queryOfText.get(text);
        const answer = query === undefined ? undefined : answers.get(query)?.[answerKey(params)];
        if (answer) {
          stats.precomputed++;
          used.precomputed++;
          return answer as T[];
        }
        stats.clickhouse++;
        used.clickhouse++;
        return live.rows<T>(text, params);
      },
    };
  };
  return {
    stats,
    forCard,
    async answer(cardId, compute) {
      const analytics = await forCard(cardId);
      const result = await compute(analytics);
      if (!analytics.previousEpoch || analytics.used.clickhouse === 0 || analytics.used.precomputed === 0) return result;
      const fromClickHouse: Analytics = {
        rows<T>(text: string, params?: Record<string, unknown>) {
          stats.clickhouse++;
          return live.rows<T>(text, params);
        },
      };
      return compute(fromClickHouse);
    },
  };
}
