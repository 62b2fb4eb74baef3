// The ClickHouse answers precomputed when prices land (ingest/analytics/precompute.ts), as an
// Analytics: a request reads its card's answers from PostgreSQL once, and each query the service
// runs is answered from them when it is the very question they were computed for (same query, same
// parameters), or a question about a card or variant the precompute found no rows for (empty), or
// a daily series of one variant over a window inside the one filed (the filed runs' rows of that
// window); from ClickHouse otherwise (a question about another card, a variant filter matching
// several variants, a source filter on the statistics, a window starting before the filed one).
// The market's movers and index are read the same way, one answer a statement. Answers are used
// under the prices epoch they were computed under, or, as the previous epoch's answers, while the
// next precompute runs.
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
  SERIES_DAYS,
  SERIES_FILED_AS,
  SERIES_QUERIES,
  SERIES_RUN,
  utcDayBefore,
  type CardQuery,
  type MarketQuery,
  type SeriesQuery,
  type SeriesRun,
} from '../../sql/cardAnalytics.js';

/** An Analytics for one card's requests, counting what it answered from where. */
export type CardAnalytics = Analytics & {
  used: { precomputed: number; clickhouse: number };
  /** The answers are the previous epoch's, standing in while the next precompute runs. */
  previousEpoch: boolean;
};

export type PrecomputedAnalytics = {
  /** An Analytics for the requests about one card, holding its statistics and the daily series named. */
  forCard(cardId: number, series?: readonly SeriesQuery[]): Promise<CardAnalytics>;
  /**
   * One answer about a card, computed by `compute` from the card's precomputed answers (the
   * statistics and the daily series named); when those are the previous epoch's (a precompute is
   * running) and `compute` also needed ClickHouse, which holds the new prices, it is computed again
   * from ClickHouse alone: never a mix of two epochs.
   */
  answer<T>(cardId: number, compute: (analytics: Analytics) => Promise<T>, series?: readonly SeriesQuery[]): Promise<T>;
  /** One answer about the market (movers, index), from its precomputed answers; the same rule. */
  market<T>(compute: (analytics: Analytics) => Promise<T>): Promise<T>;
  /** What was answered from where, over every request. */
  stats: { precomputed: number; clickhouse: number };
};

type Answers = Record<string, unknown[]>;

/**
 * A card's filed answers by query, each parsed from its JSON text when first asked for: a request
 * reads every statistics query's answers with its series, and most use one or two of them (the v2
 * history none), so parsing them all cost a request's time and garbage.
 */
class FiledAnswers {
  private readonly texts = new Map<string, string>();
  private readonly parsed = new Map<string, Answers>();
  set(query: string, text: string): void {
    this.texts.set(query, text);
  }
  get(query: string): Answers | undefined {
    let answers = this.parsed.get(query);
    const text = this.texts.get(query);
    if (answers === undefined && text !== undefined) this.parsed.set(query, (answers = JSON.parse(text) as Answers));
    return answers;
  }
  get size(): number {
    return this.texts.size;
  }
}

/** The single variant a question is about, if it is about one. */
function singleVariant(params: Record<string, unknown>): number | undefined {
  const ids = params.variant_ids;
  if (Array.isArray(ids)) return ids.length === 1 && typeof ids[0] === 'number' ? ids[0] : undefined;
  return typeof params.variant_id === 'number' ? params.variant_id : undefined;
}

/** A stored answer of a card's statistics query for `params` (undefined: ask ClickHouse). */
function storedAnswer(
  query: (typeof PRECOMPUTED_QUERIES)[number],
  answers: FiledAnswers,
  params: Record<string, unknown>,
  day: string,
): unknown[] | undefined {
  const exact = answers.get(query)?.[answerKey(params)];
  if (exact) return exact;
  // A variant the precompute read no rows of has none in a window inside the one it read.
  const coverage = COVERAGE[query];
  const from = params[coverage.param];
  const variant = singleVariant(params);
  const covered = answers.get(coverage.in)?.[answerKey({ [COVERED_VARIANTS]: true })];
  if (!covered || variant === undefined || covered.includes(variant) || typeof from !== 'string') return undefined;
  return from >= utcDayBefore(coverage.days, new Date(`${day}T00:00:00Z`)) ? [] : undefined;
}

const DAY_MS = 86_400_000;
/** YYYY-MM-DD of UTC days since 1970, formatted once per process (a year of series is 365 of them). */
const dayTexts = new Map<number, string>();
function dayText(day: number): string {
  let text = dayTexts.get(day);
  if (text === undefined) dayTexts.set(day, (text = new Date(day * DAY_MS).toISOString().slice(0, 10)));
  return text;
}
const dayNumber = (date: string) => Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);

/**
 * The rows of a variant's filed runs (SeriesRun) whose keys pass `keep`, from day `from` to day
 * `to`, shaped by `shape` from the day, the run's keys and the day's value, as the per-card query
 * returns them: by day, and a day's in the runs' (the query's key) order. Hot on uncached history
 * reads (thousands of rows a request): days are compared as numbers and each row is built once.
 */
function rowsOfRuns<R>(
  query: keyof typeof SERIES_RUN,
  runs: SeriesRun[],
  keep: (keys: Record<string, string>) => boolean,
  from: string,
  to: string | undefined,
  shape: (date: string, keys: Record<string, string>, value: unknown) => R,
): R[] {
  const { keys: names } = SERIES_RUN[query];
  const first = dayNumber(from);
  const last = to === undefined ? Infinity : dayNumber(to);
  const days: number[] = [];
  const rows: R[] = [];
  for (const run of runs) {
    const keys: Record<string, string> = {};
    for (let k = 0; k < names.length; k++) keys[names[k]!] = run[k] as string;
    if (!keep(keys)) continue;
    const steps = run[names.length + 1] as number[];
    const values = run[names.length + 2] as unknown[];
    let day = dayNumber(run[names.length] as string);
    for (let i = 0; i < steps.length; i++) {
      day += steps[i]!;
      if (day < first || day > last) continue;
      days.push(day);
      rows.push(shape(dayText(day), keys, values[i]));
    }
  }
  // Stable: a day's rows keep the runs' order.
  const order = rows.map((_, i) => i).sort((a, b) => days[a]! - days[b]! || a - b);
  return order.map((i) => rows[i]!);
}

/**
 * A daily series' answer from a card's filed runs for `params` (undefined: ask ClickHouse): one
 * variant (a card's default, or one by id), the filters its route passes, a window starting no
 * earlier than the filed one's (SERIES_DAYS before the precompute's day). A variant not filed has
 * no rows in that window.
 */
function seriesAnswer(query: SeriesQuery, filed: Answers | undefined, params: Record<string, unknown>, day: string): unknown[] | undefined {
  const variant = singleVariant(params);
  const from = params.since ?? params.start_date;
  const filedAs = SERIES_FILED_AS[query];
  if (variant === undefined || typeof from !== 'string' || from < utcDayBefore(SERIES_DAYS[filedAs] - 1, new Date(`${day}T00:00:00Z`)))
    return undefined;
  // Days the runs are cut by, as numbers: anything but a calendar day is ClickHouse's to answer.
  if (
    Number.isNaN(dayNumber(from)) ||
    (params.end_date !== undefined && (typeof params.end_date !== 'string' || Number.isNaN(dayNumber(params.end_date))))
  )
    return undefined;
  const runs = (filed?.[String(variant)] ?? []) as SeriesRun[];
  const source = typeof params.source === 'string' ? params.source : '';
  switch (query) {
    case 'legacy_price_history':
      if (params.grading_company !== 'raw' || params.grade !== '') return undefined;
      return rowsOfRuns(
        query,
        runs,
        (k) => source === '' || k.source === source,
        from,
        undefined,
        (date, k, market_price) => ({ date, source: k.source, market_price }),
      );
    case 'legacy_price_snapshots':
      return rowsOfRuns(
        query,
        runs,
        (k) => k.source === source,
        from,
        undefined,
        (date, k, market_price) => ({
          date,
          variant_id: variant,
          currency: k.currency,
          grading_company: k.grading_company,
          grade: k.grade,
          market_price,
        }),
      );
    case 'legacy_main_source': {
      // legacy_main_source.sql over the snapshots' ungraded runs: the source with the most daily
      // values in the window (a day's value in each region counts), US marketplaces first on a tie,
      // then by name.
      const count = new Map<string, { n: number; us: boolean }>();
      for (const k of rowsOfRuns(
        'legacy_price_snapshots',
        runs,
        (k) => k.grading_company === 'raw',
        from,
        undefined,
        (_, k) => k,
      )) {
        const own = count.get(k.source!) ?? { n: 0, us: false };
        count.set(k.source!, { n: own.n + 1, us: own.us || k.region === 'us' });
      }
      const [main] = [...count].sort(([a, x], [b, y]) => y.n - x.n || Number(y.us) - Number(x.us) || (a < b ? -1 : a > b ? 1 : 0));
      return main ? [{ source: main[0] }] : [];
    }
    case 'pi_card_series':
      return rowsOfRuns(
        query,
        runs,
        (k) => source === '' || k.source === source,
        from,
        params.end_date as string | undefined,
        (date, k, market_price_eur) => ({ date, source: k.source, market_price_eur }),
      );
    case 'history_points':
      return rowsOfRuns(
        query,
        runs,
        (k) => k.region === params.region,
        from,
        undefined,
        (date, k, amount) => ({ date, amount, source: k.source, price_type: k.price_type }),
      );
    case 'history_points_global':
      return rowsOfRuns(
        query,
        runs,
        () => true,
        from,
        undefined,
        (date, k, amount) => ({ date, amount, source: k.source, price_type: k.price_type }),
      );
  }
}

export function precomputedAnalytics(db: Db, live: Analytics, pricesEpoch: () => string): PrecomputedAnalytics {
  const queryOfText = new Map<string, CardQuery>([...PRECOMPUTED_QUERIES, ...SERIES_QUERIES].map((q) => [ANSWERED_QUERY[q].text, q]));
  const isSeries = (q: CardQuery): q is SeriesQuery => (SERIES_QUERIES as readonly string[]).includes(q);
  const marketQueryOfText = new Map<string, MarketQuery>(MARKET_QUERIES.map((q) => [ANSWERED_QUERY[q].text, q]));
  const stats = { precomputed: 0, clickhouse: 0 };
  const fromClickHouse: Analytics = {
    rows<T>(text: string, params?: Record<string, unknown>) {
      stats.clickhouse++;
      return live.rows<T>(text, params);
    },
  };
  const forCard = async (cardId: number, series: readonly SeriesQuery[] = []): Promise<CardAnalytics> => {
    const epoch = pricesEpoch();
    const filed = [...new Set(series.map((q) => SERIES_FILED_AS[q]))];
    const rows = await cardAnalyticsOfCard(db, cardId, [...PRECOMPUTED_QUERIES, ...filed]);
    const answers = new FiledAnswers();
    let usable = false;
    let previousEpoch = false;
    let day = '';
    for (const r of rows)
      if (r.prices_epoch === epoch || r.pending) {
        usable = true;
        previousEpoch = r.prices_epoch !== epoch;
        day = r.day;
        if (r.query !== null && r.answers !== null) answers.set(r.query, r.answers);
      }
    // Usable and nothing filed: the precompute covered every card with prices, and this one had none.
    const withoutPrices = usable && answers.size === 0;
    const storedOf = (query: CardQuery, params: Record<string, unknown>) => {
      // A question about another card (these answers are this card's alone), or a series not
      // loaded for this request (not named): ClickHouse.
      if (params.card_id !== undefined && params.card_id !== cardId) return undefined;
      if (isSeries(query) && !series.includes(query)) return undefined;
      if (withoutPrices) return [];
      if (!isSeries(query)) return storedAnswer(query, answers, params, day);
      return usable ? seriesAnswer(query, answers.get(SERIES_FILED_AS[query]), params, day) : undefined;
    };
    const used = { precomputed: 0, clickhouse: 0 };
    return {
      used,
      previousEpoch,
      async rows<T>(text: string, params: Record<string, unknown> = {}): Promise<T[]> {
        const query = queryOfText.get(text);
        const answer = query === undefined ? undefined : storedOf(query, params);
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
    async answer(cardId, compute, series) {
      const analytics = await forCard(cardId, series);
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
