// Per-card analytics precomputed when prices land (issue 35) answer exactly as the per-request
// ClickHouse computation does. For scopes of the small demo picked to cover each kind of series
// (sampleOf; a scope is a variant alone, ungraded or with a company and grade, in every window the
// services use), the services' inputs read through the precompute are compared with ClickHouse's on-demand
// answers, and each of them must have come from the precompute (a key that missed would quietly
// fall back to ClickHouse and compare equal). The endpoints are compared whole over HTTP, once
// under the precompute's epoch and once under a fresh epoch (which sends every read to
// ClickHouse); so are the daily series' endpoints (price-history, snapshots, price-intelligence,
// v2 history) in every window their routes declare, with no ClickHouse read at all. Then a new day
// lands through the production write path (a new day for some cards, a source a card did not
// have, a graded series, an outlier, a card's first and only point): the old answers must now differ (the comparison can fail), reads must not serve them, and after the
// precompute of the changed cards only, everything is equal again.
import assert from 'node:assert/strict';
import util from 'node:util';
import { after, before, describe, it } from 'node:test';
import { loadPricePoints } from '../ingest/load/pricePoints.js';
import type { PricePointRow } from '../ingest/pricePoint.js';
import { precomputeCardAnalytics } from '../ingest/analytics/precompute.js';
import { precomputedAnalytics } from '../api/legacy/precomputedAnalytics.js';
import {
  auctionSalesCountsOf,
  daysAgo,
  resolveScope,
  seriesStats,
  sourceMedians,
  RAW,
  type CardScope,
  type Grading,
} from '../api/legacy/cardPriceAnalytics.js';
import { answerKey, beginCardAnalytics, cardAnalyticsState } from '../sql/cardAnalytics.js';
import { priceHistory } from '../sql/legacyPrices.js';
import { createAnalytics, type Analytics } from '../sql/stores/analytics.js';
import { createDb, type Db } from '../sql/stores/db.js';
import { announcePricesLanded } from '../sql/stores/priceChannels.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
let db: Db;
let live: Analytics;
/** ClickHouse as it holds the prices now: a new one after each load (see askedOnce). */
let clickhouse: Analytics;

/**
 * ClickHouse's answers, each question (query and parameters) asked once: the comparisons ask the
 * same reference many times over while no price changes (each scope's any-grade sales, the moved
 * scopes once stale, once meanwhile and once mended), at ~0.1 s a query through chDB. The same
 * question of the same data answers the same, so a test makes a new one after it loads prices.
 * A precomputed read that misses asks it too: still counted as a miss, still ClickHouse's answer.
 */
function askedOnce(analytics: Analytics): Analytics {
  const asked = new Map<string, Promise<unknown[]>>();
  return {
    async rows<T>(text: string, params: Record<string, unknown> = {}): Promise<T[]> {
      const key = `${text}\n${answerKey(params)}`;
      let answer = asked.get(key);
      if (!answer) asked.set(key, (answer = analytics.rows<unknown>(text, params)));
      // A copy each time, so no caller can change another's answer.
      return structuredClone(await answer) as T[];
    },
  };
}

type Scope = { card_id: number; variant_id: number; grading_company: string; grade: string };

type ScopeTraits = Scope & {
  days: number;
  outliers: number;
  sales: number;
  currencies: number;
  two_region_sources: number;
  variants: number;
};

/**
 * The scopes compared, picked for what they cover rather than by stride (each scope costs six
 * on-demand ClickHouse queries; one card in forty cost ~370 s a pass): the scope with the fewest
 * days (a single point where the demo has one), one with an excluded outlier, one of each grading
 * company (the demo's pc17/pc18 buckets under "other" among them), one with auction sales (the
 * sales counts), one priced in two currencies, one whose source is priced in two regions (the
 * source medians' region), and an ungraded scope of a card with several variants. The new day
 * below adds a card's first and only point, a source a card did not have, a graded series and an
 * outlier, and compares every scope of the cards it changed.
 */
async function sampleOf(): Promise<{ sample: Scope[]; covers: Record<string, Scope | undefined> }> {
  const rs = await stack.stores.ch.client.query({
    query: `SELECT card_id, variant_id, grading_company, grade,
                   toUInt32(uniqExactIf(as_of, NOT is_outlier)) AS days, toUInt32(countIf(is_outlier)) AS outliers,
                   toUInt32(countIf(source = 'auction_sold' AND NOT is_outlier)) AS sales, toUInt32(uniqExact(currency)) AS currencies,
                   toUInt32(uniqExact(source, region) > uniqExact(source)) AS two_region_sources,
                   toUInt32(max(variants)) AS variants
            FROM holo.price_points FINAL
            JOIN (SELECT card_id, uniqExact(variant_id) AS variants FROM holo.price_points GROUP BY card_id) AS v USING (card_id)
            GROUP BY card_id, variant_id, grading_company, grade
            HAVING days > 0
            ORDER BY card_id, variant_id, grading_company, grade`,
    format: 'JSONEachRow',
  });
  const all = (await rs.json<ScopeTraits>()).map((r) => ({ ...r, card_id: Number(r.card_id), variant_id: Number(r.variant_id) }));
  const first = (test: (s: ScopeTraits) => boolean) => all.find(test);
  const covers: Record<string, Scope | undefined> = {
    'fewest days': [...all].sort((a, b) => a.days - b.days)[0],
    'an excluded outlier': first((s) => s.outliers > 0),
    'auction sales': first((s) => s.sales > 0),
    'two currencies': first((s) => s.currencies > 1),
    'a source in two regions': first((s) => s.two_region_sources > 0),
    'several variants': first((s) => s.grading_company === 'raw' && s.variants > 1),
  };
  for (const company of new Set(all.map((s) => s.grading_company)))
    if (company !== 'raw') covers[`graded ${company}`] = first((s) => s.grading_company === company);
  const sample = new Map<string, Scope>();
  for (const s of Object.values(covers))
    if (s)
      sample.set(`${s.card_id}/${s.variant_id}/${s.grading_company}/${s.grade}`, {
        card_id: s.card_id,
        variant_id: s.variant_id,
        grading_company: s.grading_company,
        grade: s.grade,
      });
  return { sample: [...sample.values()], covers };
}

/** Every scope with prices, as ClickHouse holds them (outliers excluded, as every read does). */
async function scopesWithPrices(): Promise<Scope[]> {
  const rs = await stack.stores.ch.client.query({
    query: `SELECT DISTINCT card_id, variant_id, grading_company, grade FROM holo.price_points FINAL WHERE NOT is_outlier
            ORDER BY card_id, variant_id, grading_company, grade`,
    format: 'JSONEachRow',
  });
  return (await rs.json<Scope>()).map((r) => ({ ...r, card_id: Number(r.card_id), variant_id: Number(r.variant_id) }));
}

/** What the services compute from ClickHouse for one single-variant scope, every window they use. */
async function inputsOf(analytics: Analytics, scope: CardScope, grading: Grading) {
  return {
    aggregatesStats: await seriesStats(analytics, scope, grading, daysAgo(3650)),
    stashStats: await seriesStats(analytics, scope, grading, daysAgo(364)),
    predictStats: await seriesStats(analytics, scope, grading, daysAgo(89)),
    medians: await sourceMedians(analytics, scope, grading, 30),
    sales: await auctionSalesCountsOf(analytics, scope, grading),
    salesAnyGrade: await auctionSalesCountsOf(analytics, scope, {}),
  };
}

/**
 * `answered` with each float that is within 1e-9 of the reference's (relative; below 1e-12 both count
 * as zero) replaced by the reference's. A sum over a scope's days (a mean, a drift, a variance) is
 * added up in another order by the batch than by the per-card query, so it may differ in its last
 * bits (measured: 887.7718461538461 against …462, a drift of -2.39e-17 against -2.32e-17); rounding
 * both to N digits would still split a pair lying across a rounding boundary (63.54046875…). Every
 * figure an endpoint shows is rounded far above that, and the endpoints are compared exactly.
 */
function withCloseFloats(answered: unknown, reference: unknown): unknown {
  if (typeof answered === 'number' && typeof reference === 'number') {
    const scale = Math.max(Math.abs(answered), Math.abs(reference));
    return scale < 1e-12 || Math.abs(answered - reference) <= scale * 1e-9 ? reference : answered;
  }
  if (Array.isArray(answered) && Array.isArray(reference)) return answered.map((v, i) => withCloseFloats(v, reference[i]));
  if (answered && reference && typeof answered === 'object' && typeof reference === 'object')
    return Object.fromEntries(Object.entries(answered).map(([k, v]) => [k, withCloseFloats(v, (reference as Record<string, unknown>)[k])]));
  return answered;
}

/**
 * Compares, scope by scope, the precomputed inputs (read under `epoch`) with ClickHouse's; returns
 * the scopes that differ and how many reads missed the precompute.
 */
async function compareScopes(scopes: Scope[], epoch: string): Promise<{ differing: string[]; missed: number; compared: number }> {
  const precomputed = precomputedAnalytics(db, clickhouse, () => epoch);
  const differing: string[] = [];
  const cardScopes = new Map<number, CardScope>();
  for (const s of scopes) {
    let card = cardScopes.get(s.card_id);
    if (!card) cardScopes.set(s.card_id, (card = (await resolveScope(db, s.card_id))!));
    const scope = { ...card, selected: [s.variant_id] };
    const grading = s.grading_company === 'raw' ? RAW : { grading_company: s.grading_company, grade: s.grade };
    const reference = await inputsOf(clickhouse, scope, grading);
    const answered = await inputsOf(await precomputed.forCard(s.card_id), scope, grading);
    try {
      assert.deepStrictEqual(withCloseFloats(answered, reference), reference);
    } catch (err) {
      if (differing.length === 0) console.log(`first difference, card ${s.card_id}: ${(err as Error).message.slice(0, 1500)}`);
      differing.push(`${s.card_id}/${s.variant_id}/${s.grading_company}${s.grade}`);
    }
  }
  return { differing, missed: precomputed.stats.clickhouse, compared: scopes.length };
}

/** The endpoints of every card, whole: default scope, each variant by name, each graded series. */
async function endpointUrls(scopes: Scope[]): Promise<string[]> {
  const urls = new Set<string>();
  for (const s of scopes) {
    const card = (await resolveScope(db, s.card_id))!;
    const base = `/api/cards/${s.card_id}`;
    for (const p of ['price-aggregates', 'stash-score', 'predict?days_ahead=30', 'price-history?days=30']) urls.add(`${base}/${p}`);
    const name = card.variants.find((v) => v.id === s.variant_id)!.name;
    urls.add(`${base}/price-aggregates?variant=${encodeURIComponent(name)}`);
    if (s.grading_company !== 'raw')
      urls.add(
        `${base}/price-aggregates?variant=${encodeURIComponent(name)}&grading_company=${s.grading_company}&grade=${encodeURIComponent(s.grade)}`,
      );
  }
  return [...urls];
}

/** Cards of the catalogue without a single price point (their answers: empty). */
async function cardsWithoutPrices(n: number): Promise<number[]> {
  const rs = await stack.stores.ch.client.query({ query: 'SELECT DISTINCT card_id FROM holo.price_points', format: 'JSONEachRow' });
  const priced = (await rs.json<{ card_id: number }>()).map((r) => Number(r.card_id));
  const { rows } = await stack.stores.pg.pool.query<{ id: number }>(
    'SELECT id FROM cards WHERE id <> ALL($1::int[]) ORDER BY id LIMIT $2',
    [priced, n],
  );
  return rows.map((r) => r.id);
}

/** Variants (by name) of cards with prices that have none themselves: [card id, variant name]. */
async function variantsWithoutPrices(n: number): Promise<[number, string][]> {
  const rs = await stack.stores.ch.client.query({
    query: 'SELECT DISTINCT card_id, variant_id FROM holo.price_points ORDER BY card_id, variant_id',
    format: 'JSONEachRow',
  });
  const priced = new Map<number, Set<number>>();
  for (const r of await rs.json<{ card_id: number; variant_id: number }>()) {
    const card = Number(r.card_id);
    priced.set(card, (priced.get(card) ?? new Set()).add(Number(r.variant_id)));
  }
  const out: [number, string][] = [];
  for (const [card, variants] of priced) {
    for (const v of (await resolveScope(db, card))!.variants) if (!variants.has(v.id)) out.push([card, v.name]);
    if (out.length >= n) break;
  }
  return out.slice(0, n);
}

/**
 * Every endpoint reading a card's analytics or daily series (price-history's days, snapshots'
 * windows, price-intelligence's periods, v2 history's regions for each variant), for cards whose
 * answers are all empty; and the per-card endpoints for a variant without prices, by name.
 */
async function unpricedUrls(cardIds: number[], variants: [number, string][]): Promise<string[]> {
  const urls: string[] = [];
  for (const id of cardIds) {
    const base = `/api/cards/${id}`;
    urls.push(`${base}/price-aggregates`, `${base}/stash-score`, `${base}/predict`);
    for (const days of [7, 30, 90, 180, 365]) urls.push(`${base}/price-history?days=${days}`);
    for (const days of [1, 30, 180, 365]) urls.push(`${base}/price-history-snapshots?days=${days}`);
    for (const period of ['7d', '30d', '90d', '1y']) urls.push(`/api/price-intelligence/card/${id}/summary?period=${period}`);
    urls.push(`/api/price-intelligence/card/${id}/series`);
    urls.push(`/api/v2/cards/${id}/history`);
    for (const variant of (await resolveScope(db, id))!.variants)
      for (const region of ['eu', 'us', 'jp', 'global']) urls.push(`/api/v2/cards/${id}/history?region=${region}&variant_id=${variant.id}`);
  }
  for (const [id, name] of variants) {
    const [base, variant] = [`/api/cards/${id}`, `variant=${encodeURIComponent(name)}`];
    for (const p of ['price-aggregates', 'stash-score', 'price-history', 'price-history-snapshots'])
      // predict takes no variant
      urls.push(`${base}/${p}?${variant}`);
    urls.push(`${base}/price-history?days=365&${variant}`);
  }
  return urls;
}

/**
 * The daily series of each card in every window its routes declare (price-history's days, the
 * snapshots' windows, the default one and a source named (price-history's source filter also
 * filters its statistics, which are asked of ClickHouse), price-intelligence's periods and its
 * series, v2 history's regions for each variant, the default, a shorter and the longest window),
 * and the statistics' endpoints beside them.
 */
async function seriesUrls(cardIds: number[]): Promise<string[]> {
  const urls: string[] = [];
  for (const id of cardIds) {
    const variants = (await resolveScope(db, id))!.variants.map((v) => v.id);
    const base = `/api/cards/${id}`;
    urls.push(`${base}/price-aggregates`, `${base}/stash-score`, `${base}/predict`);
    for (const days of [7, 30, 90, 180, 365]) urls.push(`${base}/price-history?days=${days}`);
    urls.push(`${base}/price-history-snapshots`);
    for (const days of [1, 30, 365]) urls.push(`${base}/price-history-snapshots?days=${days}`);
    urls.push(`${base}/price-history-snapshots?source=pricecharting&days=365`);
    for (const period of ['7d', '30d', '90d', '1y']) urls.push(`/api/price-intelligence/card/${id}/summary?period=${period}`);
    urls.push(`/api/price-intelligence/card/${id}/series`, `/api/price-intelligence/card/${id}/series?source=cardmarket`);
    // A window ending tomorrow (the new day below lands there).
    urls.push(`/api/price-intelligence/card/${id}/series?end_date=${daysAgo(-1)}`);
    urls.push(`/api/v2/cards/${id}/history`);
    for (const region of ['eu', 'us', 'jp', 'global'])
      for (const variant of variants)
        for (const days of [30, 365, 3650]) urls.push(`/api/v2/cards/${id}/history?region=${region}&days=${days}&variant_id=${variant}`);
  }
  return urls;
}

/** The movers of every game and of each, every period, the longest, default and shortest list, and the overview. */
async function marketUrls(): Promise<string[]> {
  const games = (await stack.stores.pg.pool.query<{ slug: string }>('SELECT slug FROM games ORDER BY slug')).rows.map((g) => g.slug);
  const urls: string[] = [];
  for (const period of ['7d', '30d', '90d']) {
    urls.push(`/api/market/overview?period=${period}`);
    for (const tcg of ['all', ...games])
      for (const limit of [1, 20, 50]) urls.push(`/api/market/movers?tcg=${tcg}&period=${period}&limit=${limit}`);
  }
  return urls;
}

/**
 * Each URL answered under the precompute's epoch equals, field by field, its answer under a fresh
 * epoch (every read asked of ClickHouse), and was answered without asking ClickHouse anything.
 * Each URL once an epoch: a second read would be the cache's.
 */
async function assertAnsweredFromPrecompute(urls: string[]) {
  const [state] = await cardAnalyticsState(stack.stores.pg.pool);
  await announcePricesLanded(stack.stores.redis, stack.config.redisPrefix, state!.prices_epoch);
  // Every ClickHouse read of the server counted, the services' own besides the precompute's; not the
  // status checks' liveness probe (api/status/probes.ts), which runs on its own timer (it landed in
  // this window once, in the server pass).
  const analytics = stack.server.deps.analytics;
  const rows = analytics.rows.bind(analytics);
  const asked: string[] = [];
  analytics.rows = (text, params) => (text === 'SELECT 1' || asked.push(text.slice(0, 80)), rows(text, params));
  const fromPrecompute = await bodies(urls).finally(() => (analytics.rows = rows));
  assert.deepEqual(asked, [], 'every read answered by the precompute');
  await announcePricesLanded(stack.stores.redis, stack.config.redisPrefix, `fresh-${Date.now()}`);
  const fromClickHouse = await bodies(urls);
  for (const url of urls) assert.deepStrictEqual(fromPrecompute.get(url), fromClickHouse.get(url), url);
  const failed = [...fromPrecompute].filter(([, b]) => (b as { status: number }).status !== 200);
  assert.deepEqual(failed, [], 'every URL answered 200');
  return fromPrecompute;
}

async function bodies(urls: string[]): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  for (const url of urls) {
    const res = await fetch(stack.server.url + url);
    out.set(url, { status: res.status, body: await res.json() });
  }
  return out;
}

/** Every URL answered under the precompute's epoch equals its answer under a fresh one (ClickHouse's). */
async function assertEndpointsEqual(scopes: Scope[]) {
  const [state] = await cardAnalyticsState(stack.stores.pg.pool);
  await announcePricesLanded(stack.stores.redis, stack.config.redisPrefix, state!.prices_epoch);
  const urls = await endpointUrls(scopes);
  const fromPrecompute = await bodies(urls);
  await announcePricesLanded(stack.stores.redis, stack.config.redisPrefix, `fresh-${Date.now()}`);
  const fromClickHouse = await bodies(urls);
  for (const url of urls) assert.deepStrictEqual(fromPrecompute.get(url), fromClickHouse.get(url), url);
  assert.ok([...fromPrecompute.values()].filter((b) => (b as { status: number }).status === 200).length >= urls.length * 0.9);
  return urls.length;
}

before(async () => {
  stack = await startStack({ demo: 'small' });
  db = createDb(stack.stores.pg.pool);
  live = createAnalytics(stack.stores.ch.client, { readonly: false, isClosed: () => false });
  clickhouse = askedOnce(live);
});
after(async () => {
  await stack?.close();
});

describe('per-card analytics precomputed when prices land', () => {
  let scopes: Scope[];
  it('answers as ClickHouse does, from the precompute, for scopes covering each kind of series', async () => {
    const result = await precomputeCardAnalytics(stack.loadTargets(), { changedSince: new Date(0) });
    scopes = await scopesWithPrices();
    const cards = new Set(scopes.map((s) => s.card_id));
    assert.equal(result.cards, cards.size, 'a first precompute covers every card with prices');
    const { sample, covers } = await sampleOf();
    for (const kind of ['fewest days', 'an excluded outlier', 'auction sales', 'two currencies', 'several variants'])
      assert.ok(covers[kind], `the sample has ${kind}`);
    assert.ok(
      sample.some((s) => s.grading_company !== 'raw'),
      'the sample has graded series',
    );
    const { differing, missed, compared } = await compareScopes(sample, result.pricesEpoch);
    assert.deepEqual(differing, []);
    assert.equal(missed, 0, 'every read was answered from the precompute');
    assert.ok(compared >= 6, `${compared} scopes compared`);
    // The endpoints whole for four sampled scopes, two graded: each URL asks ClickHouse three or
    // four queries under the fresh epoch.
    await assertEndpointsEqual(
      sample
        .filter((s) => s.grading_company !== 'raw')
        .slice(0, 2)
        .concat(sample.slice(0, 2)),
    );
  });

  it('answers a card or variant without prices, the movers and the overview as ClickHouse does, from the precompute', async () => {
    const unpriced = await cardsWithoutPrices(2);
    const variants = await variantsWithoutPrices(2);
    assert.equal(unpriced.length, 2, 'the catalogue has cards without prices');
    assert.equal(variants.length, 2, 'cards with prices have variants without');
    const answered = await assertAnsweredFromPrecompute([...(await unpricedUrls(unpriced, variants)), ...(await marketUrls())]);
    // (So the comparison can fail: the lists compared are not empty.)
    const nonEmpty = [...answered].filter(
      ([u, b]) => u.includes('/api/market/movers') && ((b as { body: { gainers?: unknown[] } }).body.gainers?.length ?? 0) > 0,
    );
    assert.ok(nonEmpty.length > 0, 'movers compared');
  });

  it('answers the daily series of priced cards as ClickHouse does, from the precompute', async () => {
    const [state] = await cardAnalyticsState(stack.stores.pg.pool);
    const { sample } = await sampleOf();
    const answered = await assertAnsweredFromPrecompute(await seriesUrls([...new Set(sample.map((s) => s.card_id))]));
    // (So the comparison can fail: the series compared are not empty.)
    const nonEmpty = (path: string, field: string) =>
      [...answered].filter(([u, b]) => u.includes(path) && ((b as { body: Record<string, unknown[]> }).body[field]?.length ?? 0) > 0)
        .length;
    assert.ok(nonEmpty('/price-history?', 'snapshots') > 0, 'price-history series compared');
    assert.ok(nonEmpty('/price-history-snapshots', 'points') > 0, 'snapshots compared');
    assert.ok(nonEmpty('/history?', 'points') > 0, 'v2 histories compared');
    assert.ok(nonEmpty('/summary', 'by_source') > 0, 'summaries compared');
    assert.ok(nonEmpty('/series', 'points') > 0, 'price-intelligence series compared');
    assert.equal(state!.prices_epoch, (await cardAnalyticsState(stack.stores.pg.pool))[0]!.prices_epoch);
  });

  it("never answers a question about another card from a card's answers: ClickHouse answers it", async () => {
    const [state] = await cardAnalyticsState(stack.stores.pg.pool);
    const precomputed = precomputedAnalytics(db, clickhouse, () => state!.prices_epoch);
    const { sample } = await sampleOf();
    const raw = sample.filter((s) => s.grading_company === 'raw');
    const asked = raw.find((s) => s.card_id !== raw[0]!.card_id)!;
    const scope = { ...(await resolveScope(db, asked.card_id))!, selected: [asked.variant_id] };
    const series = { card_id: asked.card_id, variant_ids: [asked.variant_id], since: daysAgo(29), source: '', ...RAW };
    const reference = { inputs: await inputsOf(clickhouse, scope, RAW), series: await priceHistory(clickhouse, series) };
    assert.ok(reference.series.length > 0 && reference.inputs.aggregatesStats.current !== null, 'the card asked about has prices');
    // Held answers of a priced card, and of a card without prices (whose every answer is empty).
    for (const holder of [raw[0]!.card_id, ...(await cardsWithoutPrices(1))]) {
      const analytics = await precomputed.forCard(holder, ['legacy_price_history']);
      const answered = { inputs: await inputsOf(analytics, scope, RAW), series: await priceHistory(analytics, series) };
      assert.deepStrictEqual(withCloseFloats(answered, reference), reference, `card ${holder}'s answers asked about card ${asked.card_id}`);
      assert.equal(analytics.used.precomputed, 0, `card ${holder}'s answers stood in for card ${asked.card_id}'s`);
    }
  });

  it('after a new day lands: stale answers differ and are not served; the precompute of the changed cards mends them', async () => {
    const pool = stack.stores.pg.pool;
    const raw = scopes.filter((s) => s.grading_company === 'raw');
    const priced = [...new Set(raw.map((s) => s.card_id))];
    const unpriced = (
      await pool.query<{ card_id: number; variant_id: number; game: string }>(
        `SELECT c.id AS card_id, v.id AS variant_id, g.slug AS game
         FROM cards c JOIN sets s ON s.id = c.set_id JOIN games g ON g.id = s.game_id
         JOIN printings p ON p.card_id = c.id JOIN variants v ON v.printing_id = p.id
         WHERE c.id <> ALL($1::int[]) ORDER BY c.id LIMIT 1`,
        [priced],
      )
    ).rows[0]!;
    const gameOf = new Map(
      (
        await pool.query<{ id: number; game: string }>(
          `SELECT c.id, g.slug AS game FROM cards c JOIN sets s ON s.id = c.set_id JOIN games g ON g.id = s.game_id WHERE c.id = ANY($1::int[])`,
          [priced],
        )
      ).rows.map((r) => [r.id, r.game]),
    );
    const tomorrow = daysAgo(-1);
    const point = (s: { card_id: number; variant_id: number }, p: Partial<PricePointRow>): PricePointRow => ({
      card_id: s.card_id,
      variant_id: s.variant_id,
      game: gameOf.get(s.card_id) ?? unpriced.game,
      region: 'us',
      source: 'tcgplayer',
      price_type: 'market',
      grading_company: 'raw',
      grade: '',
      currency: 'USD',
      amount: '12.3400',
      as_of: tomorrow,
      is_outlier: false,
      ...p,
    });
    const moved = raw.slice(0, 3);
    const rows: PricePointRow[] = [
      // A new day for three scopes, well away from their last value.
      ...moved.map((s, i) => point(s, { amount: (5 + i * 7.5).toFixed(4) })),
      // A source the first card never had, in euros.
      point(moved[0]!, {
        source: 'holo_new_source',
        region: 'eu',
        price_type: 'trend',
        currency: 'EUR',
        amount: '9.8700',
        as_of: daysAgo(0),
      }),
      // A graded series, and an outlier that every read leaves out.
      point(moved[1]!, { source: 'graded_guide', grading_company: 'psa', grade: '10', amount: '250.0000' }),
      point(moved[2]!, { amount: '99999.0000', is_outlier: true, observation_id: 'outlier' }),
      // A card's first and only point.
      point(unpriced, { amount: '3.2100' }),
    ];
    const [before] = await cardAnalyticsState(pool);
    // The endpoints of the moved cards as the precompute answers them before the load.
    // (Of the first moved card: each URL is read three times, and each read asks ClickHouse a few queries.)
    const movedUrls = [
      ...new Set([
        ...(await endpointUrls(moved.filter((s) => s.card_id === moved[0]!.card_id))),
        ...(await seriesUrls([moved[0]!.card_id])),
      ]),
    ];
    await announcePricesLanded(stack.stores.redis, stack.config.redisPrefix, before!.prices_epoch);
    const answeredBefore = await bodies(movedUrls);
    const landing = new Date();
    await loadPricePoints(stack.loadTargets(), rows, { id: `card-analytics-${Date.now()}`, ingestedAt: landing });
    clickhouse = askedOnce(live);

    const after = await scopesWithPrices();
    const changedCards = new Set(rows.map((r) => r.card_id));
    const changed = after.filter((s) => changedCards.has(s.card_id));
    // The scopes of the variants the new rows touched (each gained a day, a source, a graded series,
    // an outlier or its first point), ungraded and graded: the comparison after the precompute.
    const touchedVariants = new Set(rows.map((r) => r.variant_id));
    const touched = changed.filter((s) => touchedVariants.has(s.variant_id));
    assert.ok(
      touched.some((s) => s.card_id === unpriced.card_id),
      'the new card has its single point',
    );
    assert.ok(
      touched.some((s) => s.grading_company === 'psa' && s.grade === '10'),
      'the new graded series is compared',
    );
    // The answers computed before the load, read as if still current, differ from ClickHouse's now.
    const stale = await compareScopes(moved, before!.prices_epoch);
    assert.ok(stale.differing.length >= moved.length, `stale answers differ: ${stale.differing.length} of ${stale.compared}`);
    // Under the load's own epoch (no precompute has run for it) every read goes to ClickHouse.
    const epochNow = (await stack.stores.redis.get(`${stack.config.redisPrefix}:prices:epoch`))!;
    const meanwhile = await compareScopes(moved, epochNow);
    assert.deepEqual(meanwhile.differing, []);
    assert.ok(meanwhile.missed > 0);

    // The next precompute has begun (the load announced its epoch): every endpoint answers whole
    // from the previous epoch's answers, as before the load (v2 history's longest window too: the
    // filed one reaches back ten years).
    await beginCardAnalytics(pool);
    const answeredMeanwhile = await bodies(movedUrls);

    const result = await precomputeCardAnalytics(stack.loadTargets(), { changedSince: landing });
    const answeredAfter = await bodies(movedUrls);
    for (const url of movedUrls) assert.deepStrictEqual(answeredMeanwhile.get(url), answeredBefore.get(url), url);
    const movedAnswers = (path: string) =>
      movedUrls.filter((u) => u.includes(path) && !util.isDeepStrictEqual(answeredBefore.get(u), answeredAfter.get(u)));
    // (So the comparisons above can fail: the load changed what these endpoints answer.)
    assert.ok(movedAnswers('/price-history?').length > 0, 'the load moved price-history answers');
    assert.ok(movedAnswers('/price-aggregates').length > 0, 'the load moved price-aggregates answers');
    for (const path of ['/price-history-snapshots', '/api/v2/cards/', '/api/price-intelligence/'])
      assert.ok(movedAnswers(path).length > 0, `the load moved ${path} answers`);
    assert.equal(result.all, false);
    assert.equal(result.cards, changedCards.size, 'only the changed cards are recomputed');
    const mended = await compareScopes(touched, result.pricesEpoch);
    assert.deepEqual(mended.differing, []);
    assert.equal(mended.missed, 0, 'every read was answered from the precompute');
    // The endpoints whole of the new card and of the card with the new graded series.
    await assertEndpointsEqual(touched.filter((s) => s.card_id === unpriced.card_id || s.card_id === moved[1]!.card_id));
    // Cards and variants still without prices, and the market's lists, after the new day.
    const stillUnpriced = await cardsWithoutPrices(2);
    assert.ok(!stillUnpriced.includes(unpriced.card_id));
    await assertAnsweredFromPrecompute([...(await unpricedUrls(stillUnpriced, await variantsWithoutPrices(2))), ...(await marketUrls())]);
    // The daily series after the new day: of the cards it changed (a new day, a source, a graded
    // series, an outlier, a card's first point), and of the sample.
    const { sample } = await sampleOf();
    await assertAnsweredFromPrecompute(await seriesUrls([...new Set([...changedCards, ...sample.map((s) => s.card_id)])]));
  });

  it('while the next precompute runs, reads answer from the previous one, never half of each', async () => {
    const pool = stack.stores.pg.pool;
    const [state] = await cardAnalyticsState(pool);
    const scopes = (await scopesWithPrices()).slice(0, 4);
    await pool.query('UPDATE card_analytics_state SET pending_since = now()');
    const pending = await compareScopes(scopes, `a-newer-epoch-${Date.now()}`);
    assert.deepEqual(pending.differing, []);
    assert.equal(pending.missed, 0, 'the previous generation answers while one is pending');
    // A generation written but not yet published is not read: the card reads as one the current
    // generation had no prices for (a card's first prices, loaded while the precompute runs).
    await pool.query('UPDATE card_analytics SET generation = generation + 1000 WHERE card_id = $1', [scopes[0]!.card_id]);
    const unpublished = await compareScopes(scopes.slice(0, 1), state!.prices_epoch);
    assert.equal(unpublished.differing.length, 1, 'answers beyond the current generation are not used');
    assert.equal(unpublished.missed, 0);
  });
});
