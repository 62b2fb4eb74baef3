// Per-card analytics computed when prices land (issue 35), so that a request for price-aggregates,
// stash-score, predict or a card's daily series (price-history, snapshots, the price-intelligence
// summary and series, v2 history) reads its ClickHouse answers from PostgreSQL in about a
// millisecond instead of queueing behind ClickHouse (chDB runs one parameterised query at a time
// per process).
//
// The rule: ClickHouse computes, in batch over the cards whose prices (or the exchange rates)
// changed, the very answers the per-card queries would give for every single-variant scope (each
// variant, ungraded and each company and grade it has) and every window the services ask for; each
// is filed under its query and exact parameters (sql/cardAnalytics.ts), the daily series as each
// variant's runs over their longest window (written as JSON text by ClickHouse), under a new
// generation that becomes current in one update at the end, announced as a new prices epoch
// (which also ends every answer cached meanwhile). Readers use a generation only under that epoch, or while the next
// precompute runs (so they answer from the previous epoch until it ends, never from a mix);
// otherwise, as after a load no precompute followed, they ask ClickHouse as before.
import type pg from 'pg';
import type { ClickHouseClient } from '@clickhouse/client';
import {
  answerKey,
  beginCardAnalytics,
  cardAnalyticsGames,
  cardAnalyticsState,
  COVERED_VARIANTS,
  dailySeriesOfBatch,
  historyPointsOfCards,
  MARKET_CARD,
  MOVERS_DAYS,
  MOVERS_MAX_LIMIT,
  cardsChangedSince,
  clearCardAnalyticsBatch,
  copyCardAnalytics,
  discardUnpublishedCardAnalytics,
  fillCardAnalyticsBatch,
  lockCardAnalytics,
  PRECOMPUTED_WINDOWS,
  publishCardAnalytics,
  pruneCardAnalytics,
  salesCountsOfCards,
  SERIES_DAYS,
  seriesStatsOfBatch,
  snapshotsOfBatch,
  sourceMediansOfBatch,
  unlockCardAnalytics,
  utcDayBefore,
  type PrecomputedQuery,
} from '../../sql/cardAnalytics.js';
import { marketIndex, marketMovers } from '../../sql/market.js';
import { tsvField } from '../../sql/stores/clickhouseInserts.js';
import { announcePricesLanded } from '../../sql/stores/priceChannels.js';
import type { RedisStore } from '../../sql/stores/redis.js';

export type PrecomputeTargets = { ch: ClickHouseClient; pool: pg.Pool; redis: RedisStore; redisPrefix: string };

export type PrecomputeResult = {
  cards: number;
  generation: number;
  pricesEpoch: string;
  all: boolean;
  seconds: number;
  /** Of `seconds`: waiting for ClickHouse's answers, and writing them to PostgreSQL. */
  clickhouseSeconds: number;
  postgresSeconds: number;
};

/** How far a precompute is: counted after each batch's answers are written to PostgreSQL. */
export type PrecomputeProgress = {
  batchesDone: number;
  batchesTotal: number;
  cardsDone: number;
  cardsTotal: number;
  /** So far: waiting for ClickHouse's answers, and writing them to PostgreSQL. */
  clickhouseSeconds: number;
  postgresSeconds: number;
};

/** A progress as one line (a heartbeat's detail, the benchmark's output). */
export const progressText = (p: PrecomputeProgress) =>
  `${p.cardsDone} of ${p.cardsTotal} cards, batch ${p.batchesDone} of ${p.batchesTotal} (so far ClickHouse ${p.clickhouseSeconds.toFixed(1)} s, PostgreSQL ${p.postgresSeconds.toFixed(1)} s)`;

/**
 * Cards per batch: a batch is four ClickHouse statements of well under a second each on the full
 * demo (the daily rows read once into a batch table, then three queries), so the API's own
 * ClickHouse reads, which chDB runs one at a time, wait at most that long behind one. Larger
 * batches cost the same per card (2,000 cards took four times 500's time).
 */
const CHUNK = 500;

type Row = { card_id: number; variant_id: number; grading_company: string; grade: string } & Record<string, unknown>;
type Answers = Record<string, unknown[]>;

/**
 * Precomputes the analytics of the cards whose prices were loaded at or after `changedSince` (and of
 * any loaded since the previous precompute began), of the cards priced in a currency whose exchange
 * rates were loaded since, and of every card on a new day (every answer's windows moved).
 * Idempotent: a retry recomputes the same generation; one runs at a time.
 */
export async function precomputeCardAnalytics(
  targets: PrecomputeTargets,
  opts: { changedSince: Date; today?: Date; progress?: (progress: PrecomputeProgress) => void },
): Promise<PrecomputeResult> {
  const started = performance.now();
  const startedAt = new Date();
  const today = opts.today ?? startedAt;
  const day = utcDayBefore(0, today);
  const session = await targets.pool.connect();
  try {
    await lockCardAnalytics(session);
    const [state] = await cardAnalyticsState(session);
    await beginCardAnalytics(session);
    await discardUnpublishedCardAnalytics(session);
    const since = state && state.watermark < opts.changedSince ? state.watermark : opts.changedSince;
    let [changed] = await cardsChangedSince(targets.ch, { since: dateTime64(since) });
    const all = !state || state.day !== day;
    if (all) [changed] = await cardsChangedSince(targets.ch, { since: dateTime64(new Date(0)) });
    const cardIds = [...(changed?.card_ids ?? [])].sort((a, b) => a - b);
    const generation = (state?.generation ?? 0) + 1;
    const spent = { clickhouse: 0, postgres: 0 };
    // ClickHouse computes the next batch while PostgreSQL writes this one.
    let writing: Promise<void> = Promise.resolve();
    for (let i = 0; i < cardIds.length; i += CHUNK) {
      const chunk = cardIds.slice(i, i + CHUNK);
      let t = performance.now();
      const answers = await answersOfCards(targets.ch, chunk, today);
      const series = await seriesOfCards(targets.ch, chunk, today, generation);
      spent.clickhouse += performance.now() - t;
      await writing;
      t = performance.now();
      const written = copyCardAnalytics(session, answersAsTsv(chunk, answers, generation) + series).then(() => {
        spent.postgres += performance.now() - t;
        opts.progress?.({
          batchesDone: i / CHUNK + 1,
          batchesTotal: Math.ceil(cardIds.length / CHUNK),
          cardsDone: Math.min(i + CHUNK, cardIds.length),
          cardsTotal: cardIds.length,
          clickhouseSeconds: spent.clickhouse / 1000,
          postgresSeconds: spent.postgres / 1000,
        });
      });
      written.catch(() => undefined); // awaited before the next write; this only keeps a failure from counting as unhandled meanwhile
      writing = written;
    }
    await writing;
    // The market's movers and index move with any card's prices: computed again when some did
    // (once a generation, not a batch; until then an earlier generation's stand, or ClickHouse).
    if (cardIds.length > 0) {
      const t = performance.now();
      const market = await marketAnswers(
        targets.ch,
        (await cardAnalyticsGames(session)).map((g) => g.slug),
      );
      spent.clickhouse += performance.now() - t;
      const tsv = [...market].map(([query, answers]) => `${MARKET_CARD}\t${query}\t${generation}\t${tsvField(JSON.stringify(answers))}\n`);
      await copyCardAnalytics(session, tsv.join(''));
    }
    // A new prices epoch of its own: answers cached while this ran (from the previous generation,
    // or from ClickHouse) end with it, and readers take this generation under it.
    const pricesEpoch = `${Date.now().toString(36)}-a${generation}`;
    await publishCardAnalytics(session, generation, pricesEpoch, day, startedAt);
    await announcePricesLanded(targets.redis, targets.redisPrefix, pricesEpoch);
    await pruneCardAnalytics(session);
    return {
      cards: cardIds.length,
      generation,
      pricesEpoch,
      all,
      seconds: (performance.now() - started) / 1000,
      clickhouseSeconds: spent.clickhouse / 1000,
      postgresSeconds: spent.postgres / 1000,
    };
  } finally {
    await unlockCardAnalytics(session).catch(() => undefined);
    session.release();
  }
}

/** The batch's answers as card_analytics_copy.sql's rows: card, query, generation, answers (JSON). */
function answersAsTsv(cardIds: number[], answers: Map<PrecomputedQuery, Map<number, Answers>>, generation: number): string {
  const lines: string[] = [];
  for (const [query, perCard] of answers)
    for (const id of cardIds) lines.push(`${id}\t${query}\t${generation}\t${tsvField(JSON.stringify(perCard.get(id) ?? {}))}\n`);
  return lines.join('');
}

/**
 * The market's answers (movers of every game and of each, every period, the longest list; the
 * index of every period), per query: {answerKey(parameters): rows}, as the market service asks
 * them. Rows as their typed functions parse them (parsing them again on reading changes nothing).
 */
async function marketAnswers(ch: ClickHouseClient, games: string[]): Promise<Map<string, Answers>> {
  const movers: Answers = {};
  const index: Answers = {};
  for (const days of MOVERS_DAYS) {
    index[answerKey({ days })] = await marketIndex(ch, { days });
    for (const game of ['', ...games]) {
      const params = { game, days, limit: MOVERS_MAX_LIMIT };
      movers[answerKey(params)] = await marketMovers(ch, params);
    }
  }
  return new Map([
    ['market_movers', movers],
    ['market_index', index],
  ]);
}

/**
 * The daily series of the cards (the batch table filled by answersOfCards) as card_analytics_copy.sql's
 * lines: ClickHouse writes each card's answers as JSON text and Node hands them on untouched (filed
 * as rows parsed here, they made a batch about ten times slower).
 */
async function seriesOfCards(ch: ClickHouseClient, cardIds: number[], today: Date, generation: number): Promise<string> {
  const since = (query: keyof typeof SERIES_DAYS) => utcDayBefore(SERIES_DAYS[query] - 1, today);
  const historySince = since('history_points');
  return [
    await dailySeriesOfBatch(ch, { since: since('legacy_price_history'), generation }),
    await snapshotsOfBatch(ch, { since: since('legacy_price_snapshots'), generation }),
    // The rates' days: the window's, and a month beyond today (a price dated ahead of the day).
    await historyPointsOfCards(ch, { card_ids: cardIds, since: historySince, days: SERIES_DAYS.history_points + 31, generation }),
  ].join('');
}

/** A DateTime64(3, 'UTC') parameter's text. */
const dateTime64 = (at: Date) => at.toISOString().replace('T', ' ').replace('Z', '');

/** Every precomputed answer of the cards, per query and card: {answerKey(parameters): rows}. */
async function answersOfCards(ch: ClickHouseClient, cardIds: number[], today: Date): Promise<Map<PrecomputedQuery, Map<number, Answers>>> {
  const w = PRECOMPUTED_WINDOWS;
  const sinces = w.analysisSinceDays.map((days) => utcDayBefore(days, today));
  const mediansSince = utcDayBefore(w.medianDays + 400, today);
  await clearCardAnalyticsBatch(ch, {});
  await fillCardAnalyticsBatch(ch, { card_ids: cardIds, since: [...sinces, mediansSince].sort()[0]! });
  const statsRows = await seriesStatsOfBatch(ch, { sinces });
  const stats = sinces.map((since) => ({ since, rows: statsRows.flatMap(({ since: window, ...r }) => (window === since ? [r] : [])) }));
  const medians = await sourceMediansOfBatch(ch, { since: mediansSince, days: w.medianDays });
  const salesParams = { since30: utcDayBefore(w.salesSinceDays.since30, today), since365: utcDayBefore(w.salesSinceDays.since365, today) };
  const sales = await salesCountsOfCards(ch, { card_ids: cardIds, ...salesParams });

  // The scopes of a card: each variant seen, ungraded and with every company and grade seen.
  const scopes = new Map<number, Map<string, { variant_id: number; grading_company: string; grade: string }>>();
  const addScope = (card: number, variant_id: number, grading_company: string, grade: string) => {
    let own = scopes.get(card);
    if (!own) scopes.set(card, (own = new Map()));
    own.set(`${variant_id}|${grading_company}|${grade}`, { variant_id, grading_company, grade });
  };
  for (const r of [...stats.flatMap((s) => s.rows), ...medians, ...sales]) {
    addScope(r.card_id, r.variant_id, 'raw', '');
    if (r.grading_company !== '' && r.grading_company !== 'raw') addScope(r.card_id, r.variant_id, r.grading_company, r.grade);
  }
  const scopeKey = (r: Row) => `${r.card_id}|${r.variant_id}|${r.grading_company}|${r.grade}`;
  const group = (rows: Row[]) => {
    const byScope = new Map<string, unknown[]>();
    for (const { card_id: _c, variant_id: _v, grading_company: _g, grade: _d, ...answer } of rows) {
      const key = scopeKey({ card_id: _c, variant_id: _v, grading_company: _g, grade: _d });
      const list = byScope.get(key);
      if (list) list.push(answer);
      else byScope.set(key, [answer]);
    }
    return byScope;
  };
  const statsByScope = stats.map((s) => ({ since: s.since, byScope: group(s.rows) }));
  const mediansByScope = group(medians);
  const salesByScope = group(sales);

  const out = new Map<PrecomputedQuery, Map<number, Answers>>(
    (['legacy_price_analysis', 'legacy_source_medians', 'legacy_sales_counts'] as const).map((q) => [q, new Map()]),
  );
  const put = (query: PrecomputedQuery, card: number, params: Record<string, unknown>, rows: unknown[]) => {
    const perCard = out.get(query)!;
    let answers = perCard.get(card);
    if (!answers) perCard.set(card, (answers = {}));
    answers[answerKey(params)] = rows;
  };
  // Parameters exactly as api/legacy/cardPriceAnalytics.ts passes them for a single-variant scope.
  for (const [card, own] of scopes)
    for (const scope of own.values()) {
      const base = { card_id: card, variant_ids: [scope.variant_id] };
      const grading = { grading_company: scope.grading_company, grade: scope.grade };
      const key = scopeKey({ card_id: card, ...scope });
      for (const s of statsByScope)
        put('legacy_price_analysis', card, { ...base, since: s.since, source: '', ...grading }, s.byScope.get(key) ?? []);
      put('legacy_source_medians', card, { ...base, since: mediansSince, days: w.medianDays, ...grading }, mediansByScope.get(key) ?? []);
      put('legacy_sales_counts', card, { ...base, ...salesParams, ...grading }, salesByScope.get(key) ?? []);
      if (scope.grading_company === 'raw') {
        // Every grade at once: the row the grouping set without company and grade gives.
        const anyGrade = { grading_company: '', grade: '' };
        put(
          'legacy_sales_counts',
          card,
          { ...base, ...salesParams, ...anyGrade },
          salesByScope.get(scopeKey({ card_id: card, variant_id: scope.variant_id, ...anyGrade })) ?? [],
        );
      }
    }
  // The variants each card has rows of (daily rows, sales): a variant not listed has none (COVERAGE).
  const variantsOf = (rows: { card_id: number; variant_id: number }[]) => {
    const of = new Map<number, Set<number>>();
    for (const r of rows) {
      let own = of.get(r.card_id);
      if (!own) of.set(r.card_id, (own = new Set()));
      own.add(r.variant_id);
    }
    return of;
  };
  const daily = variantsOf(stats.flatMap((st) => st.rows));
  const sold = variantsOf(sales);
  const listed = (variants: Set<number> | undefined) => [...(variants ?? [])].sort((a, b) => a - b);
  for (const card of cardIds) {
    put('legacy_price_analysis', card, { [COVERED_VARIANTS]: true }, listed(daily.get(card)));
    put('legacy_sales_counts', card, { [COVERED_VARIANTS]: true }, listed(sold.get(card)));
  }
  return out;
}
