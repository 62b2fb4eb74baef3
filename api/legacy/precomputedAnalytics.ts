// The ClickHouse answers precomputed when prices land (ingest/analytics/precompute.ts), as an
// Analytics: a request reads its card's answers from PostgreSQL once, and each query the service
// runs is answered from them when it is the very question they were computed for (same query, same
// parameters), or a question about a card or variant the precompute found no rows for (empty,
// the daily series' too); from ClickHouse otherwise (a variant filter matching several variants, a
// source filter, a card's daily series). The market's movers and index are read the same way, one
// answer a statement. Answers are used under the prices epoch they were computed under, or, as the
// previous epoch's answers, while the next precompute runs.
import type { Analytics } from '../../sql/stores/analytics.js';
import type { Db } from '../../sql/stores/db.js';
import {
  ANSWERED_QUERY,
  answerKey,
  cardAnalyticsAnswer,
  cardAnalyticsOfCard,
  COVERAGE,
  COVERED_VARIANTS,
  MARKET_CARD,
  MARKET_QUERIES,
  MOVERS_MAX_LIMIT,
  PRECOMPUTED_QUERIES,
  SERIES_QUERIES,
  utcDayBefore,
  type CardQuery,
  type MarketQuery,
} from '../../sql/cardAnalytics.js';

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
  /** One answer about the market (movers, index), from its precomputed answers; the same rule. */
  market<T>(compute: (analytics: Analytics) => Promise<T>): Promise<T>;
  /** What was answered from where, over every request. */
  stats: { precomputed: number; clickhouse: number };
};

type Answers = Record<string, unknown[]>;

/** The single variant a question is about, if it is about one. */
function singleVariant(params: Record<string, unknown>): number | undefined {
  const ids = params.variant_ids;
  if (Array.isArray(ids)) return ids.length === 1 && typeof ids[0] === 'number' ? ids[0] : undefined;
  return typeof params.variant_id === 'number' ? params.variant_id : undefined;
}

/** A stored answer of a card's query for `params` (undefined: ask ClickHouse). */
function storedAnswer(
  query: CardQuery,
  answers: Map<string, Answers>,
  params: Record<string, unknown>,
  day: string,
): unknown[] | undefined {
  const exact = answers.get(query)?.[answerKey(params)];
  if (exact) return exact;
  // A variant the precompute read no rows of has none in a window inside the one it read.
  const coverage = COVERAGE[query];
  if (!coverage) return undefined;
  const from = params[coverage.param];
  const variant = singleVariant(params);
  const covered = answers.get(coverage.in)?.[answerKey({ [COVERED_VARIANTS]: true })];
  if (!covered || variant === undefined || covered.includes(variant) || typeof from !== 'string') return undefined;
  return from >= utcDayBefore(coverage.days, new Date(`${day}T00:00:00Z`)) ? [] : undefined;
}

export function precomputedAnalytics(db: Db, live: Analytics, pricesEpoch: () => string): PrecomputedAnalytics {
  const queryOfText = new Map<string, CardQuery>([...PRECOMPUTED_QUERIES, ...SERIES_QUERIES].map((q) => [ANSWERED_QUERY[q].text, q]));
  const marketQueryOfText = new Map<string, MarketQuery>(MARKET_QUERIES.map((q) => [ANSWERED_QUERY[q].text, q]));
  const stats = { precomputed: 0, clickhouse: 0 };
  const fromClickHouse: Analytics = {
    rows<T>(text: string, params?: Record<string, unknown>) {
      stats.clickhouse++;
      return live.rows<T>(text, params);
    },
  };
  const forCard = async (cardId: number): Promise<CardAnalytics> => {
    const epoch = pricesEpoch();
    const rows = await cardAnalyticsOfCard(db, cardId, PRECOMPUTED_QUERIES);
    const answers = new Map<string, Answers>();
    let usable = false;
    let previousEpoch = false;
    let day = '';
    for (const r of rows)
      if (r.prices_epoch === epoch || r.pending) {
        usable = true;
        previousEpoch = r.prices_epoch !== epoch;
        day = r.day;
        if (r.query !== null && r.answers !== null) answers.set(r.query, JSON.parse(r.answers) as Answers);
      }
    // Usable and nothing filed: the precompute covered every card with prices, and this one had none.
    const withoutPrices = usable && answers.size === 0;
    const used = { precomputed: 0, clickhouse: 0 };
    return {
      used,
      previousEpoch,
      async rows<T>(text: string, params: Record<string, unknown> = {}): Promise<T[]> {
        const query = queryOfText.get(text);
        const answer = query === undefined ? undefined : withoutPrices ? [] : storedAnswer(query, answers, params, day);
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
      return compute(fromClickHouse);
    },
    async market(compute) {
      const epoch = pricesEpoch();
      const generations = new Set<string>();
      const used = { previous: false, clickhouse: false };
      const analytics: Analytics = {
        async rows<T>(text: string, params: Record<string, unknown> = {}): Promise<T[]> {
          const query = marketQueryOfText.get(text);
          // The movers' lists of a smaller limit are the first of the longest one's.
          const limit = typeof params.limit === 'number' ? params.limit : undefined;
          const [r] =
            query === undefined || (limit ?? 0) > MOVERS_MAX_LIMIT
              ? []
              : await cardAnalyticsAnswer(
                  db,
                  MARKET_CARD,
                  query,
                  answerKey(limit === undefined ? params : { ...params, limit: MOVERS_MAX_LIMIT }),
                );
          if (r && r.answer !== null && (r.prices_epoch === epoch || r.pending)) {
            stats.precomputed++;
            generations.add(r.generation);
            used.previous ||= r.prices_epoch !== epoch;
            const rows = JSON.parse(r.answer) as Record<string, unknown>[];
            if (limit === undefined) return rows as T[];
            return rows.map((row) =>
              Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Array.isArray(v) ? v.slice(0, limit) : v])),
            ) as T[];
          }
          used.clickhouse = true;
          return fromClickHouse.rows<T>(text, params);
        },
      };
      const result = await compute(analytics);
      // Two generations, or the previous epoch beside ClickHouse's newer prices: ClickHouse alone.
      if (generations.size <= 1 && !(used.previous && used.clickhouse)) return result;
      return compute(fromClickHouse);
    },
  };
}
