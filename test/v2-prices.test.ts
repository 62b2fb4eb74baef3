// v2 prices and history: latest per series with its own as_of, outliers excluded everywhere,
// graded semantics, regions and currencies, idempotent loads, and cache invalidation on new prices.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CardDetail, HistoryResponse } from '../schemas/v2.js';
import { createTestCards } from './support/catalogue.js';
import { loadPricePoints } from '../ingest/load/pricePoints.js';
import { type PricePointRow } from '../ingest/pricePoint.js';
import { chRows, daysAgo, todayUtc } from './support/clickhouseRows.js';
import { startStack, type Stack } from './support/stack.js';
import { generateDemoHistory } from '../ingest/demo/priceHistory.js';
import { announcePricesLanded } from '../sql/stores/priceChannels.js';

let stack: Stack;
let cardId: number;
let otherCardId: number;
let variantA: number;
let variantB: number;

const targets = () => stack.loadTargets();

function point(p: Partial<PricePointRow> & Pick<PricePointRow, 'region' | 'source' | 'currency' | 'amount' | 'as_of'>): PricePointRow {
  return {
    card_id: cardId,
    variant_id: variantA,
    game: 'test-prices',
    price_type: '',
    grading_company: 'raw',
    grade: '',
    is_outlier: false,
    ...p,
  };
}

before(async () => {
  stack = await startStack();
  const cards = await createTestCards(stack.stores.pg.pool, 'test-prices', ['1', '2']);
  cardId = cards['1']!.card;
  variantA = cards['1']!.variants.normal!;
  variantB = cards['1']!.variants.holofoil!;
  otherCardId = cards['2']!.card;
  await loadPricePoints(
    targets(),
    [
      point({ region: 'eu', source: 'eu_market', price_type: 'trend', currency: 'EUR', amount: '10.00', as_of: daysAgo(2) }),
      point({
        region: 'eu',
        source: 'eu_market',
        price_type: 'trend',
        currency: 'EUR',
        amount: '100.00',
        as_of: daysAgo(1),
        is_outlier: true,
      }),
      point({ region: 'eu', source: 'eu_market', price_type: 'low', currency: 'EUR', amount: '8.40', as_of: daysAgo(1) }),
      point({ region: 'us', source: 'us_market', price_type: 'market', currency: 'USD', amount: '12.50', as_of: todayUtc() }),
      point({
        region: 'us',
        source: 'graded_guide',
        grading_company: 'psa',
        grade: '10',
        currency: 'USD',
        amount: '200.00',
        as_of: daysAgo(1),
      }),
      point({
        region: 'us',
        source: 'graded_guide',
        grading_company: 'other',
        grade: 'pc17',
        currency: 'USD',
        amount: '150.00',
        as_of: todayUtc(),
      }),
      point({
        region: 'us',
        source: 'graded_guide',
        grading_company: 'other',
        grade: '9.5',
        currency: 'USD',
        amount: '80.00',
        as_of: todayUtc(),
      }),
      point({ region: 'jp', source: 'jp_market', price_type: 'raw_jp', currency: 'JPY', amount: '1500', as_of: todayUtc() }),
    ],
    { id: 'test-batch-1', ingestedAt: new Date() },
  );
});
after(async () => {
  await stack?.close();
});

describe('card detail prices', () => {
  it('returns the latest non-outlier value of each series, each with its own as_of', async () => {
    const { body } = await stack.json(`/api/v2/cards/${cardId}`);
    CardDetail.parse(body);
    const prices = body.printings[0]!.variants[0]!.prices;
    assert.deepEqual(prices.eu, [
      { source: 'eu_market', price_type: 'low', currency: 'EUR', amount: 8.4, as_of: daysAgo(1) },
      { source: 'eu_market', price_type: 'trend', currency: 'EUR', amount: 10, as_of: daysAgo(2) },
    ]);
    assert.deepEqual(prices.us, [{ source: 'us_market', price_type: 'market', currency: 'USD', amount: 12.5, as_of: todayUtc() }]);
    assert.deepEqual(body.printings[0]!.variants[1]!.prices, { eu: [], us: [], graded: [] });
  });

  it('keeps graded semantics: company and grade as loaded, other/pc17 never relabelled, no price_type', async () => {
    const { body } = await stack.json(`/api/v2/cards/${cardId}`);
    const graded = body.printings[0]!.variants[0]!.prices.graded;
    // oxlint-disable-next-line typescript/require-array-sort-compare -- rows in the default (text) order, as this test always compared them
    assert.deepEqual(graded.map((g: Record<string, unknown>) => [g.grading_company, g.grade, g.amount]).sort(), [
      ['other', '9.5', 80],
      ['other', 'pc17', 150],
      ['psa', '10', 200],
    ]);
    for (const g of graded) {
      assert.equal('price_type' in g, false);
      assert.equal(g.currency, 'USD');
    }
    // Raw prices never appear in graded, graded never in us.
    assert.ok(body.printings[0]!.variants[0]!.prices.us.every((p: { source: string }) => p.source !== 'graded_guide'));
  });

  it('shows newly landed prices at once although the detail is cached', async () => {
    const first = await stack.json(`/api/v2/cards/${otherCardId}`);
    assert.deepEqual(first.body.printings[0]!.variants[0]!.prices.us, []);
    const cachedAgain = await stack.json(`/api/v2/cards/${otherCardId}`);
    assert.deepEqual(cachedAgain.body, first.body);
    const otherVariant = first.body.printings[0]!.variants[0]!.id;
    await loadPricePoints(
      targets(),
      [
        {
          ...point({ region: 'us', source: 'us_market', price_type: 'market', currency: 'USD', amount: '3.10', as_of: todayUtc() }),
          card_id: otherCardId,
          variant_id: otherVariant,
        },
      ],
      { id: 'test-batch-other', ingestedAt: new Date() },
    );
    const after = await stack.json(`/api/v2/cards/${otherCardId}`);
    assert.equal(after.body.printings[0]!.variants[0]!.prices.us[0]!.amount, 3.1);
  });
});

describe('GET /api/v2/cards/{card_id}/history', () => {
  it('defaults to the first variant, region eu, 90 days, and excludes outliers', async () => {
    const { status, body } = await stack.json(`/api/v2/cards/${cardId}/history`);
    assert.equal(status, 200);
    HistoryResponse.parse(body);
    assert.equal(body.variant_id, variantA);
    assert.equal(body.region, 'eu');
    assert.equal(body.currency, 'EUR');
    assert.equal(body.days, 90);
    assert.deepEqual(body.points, [
      { date: daysAgo(2), amount: 10, source: 'eu_market', price_type: 'trend' },
      { date: daysAgo(1), amount: 8.4, source: 'eu_market', price_type: 'low' },
    ]);
  });

  it('serves us and jp in their own currencies, raw series only', async () => {
    const us = (await stack.json(`/api/v2/cards/${cardId}/history?region=us`)).body;
    assert.equal(us.currency, 'USD');
    assert.deepEqual(us.points, [{ date: todayUtc(), amount: 12.5, source: 'us_market', price_type: 'market' }]);
    const jp = (await stack.json(`/api/v2/cards/${cardId}/history?region=jp`)).body;
    assert.equal(jp.currency, 'JPY');
    assert.deepEqual(jp.points, [{ date: todayUtc(), amount: 1500, source: 'jp_market', price_type: 'raw_jp' }]);
  });

  it("converts every region to USD for global with the day's euro reference rate", async () => {
    const rates = await chRows<{ d: string; currency: string; rate: string }>(
      stack.stores.ch.client,
      `SELECT toString(day) AS d, currency, toString(rate) AS rate FROM holo.fx_rates FINAL WHERE day >= {since:Date} AND currency IN ('USD', 'JPY')`,
      { since: daysAgo(3) },
    );
    const rate = (day: string, cur: string) => Number(rates.find((r) => r.d === day && r.currency === cur)!.rate);
    const { body } = await stack.json(`/api/v2/cards/${cardId}/history?region=global&days=3`);
    assert.equal(body.currency, 'USD');
    const byKey = Object.fromEntries(
      body.points.map((p: { date: string; source: string; price_type: string; amount: number }) => [`${p.date}/${p.price_type}`, p.amount]),
    );
    assert.ok(Math.abs(byKey[`${daysAgo(2)}/trend`]! - 10 * rate(daysAgo(2), 'USD')) < 0.001);
    assert.ok(Math.abs(byKey[`${daysAgo(1)}/low`]! - 8.4 * rate(daysAgo(1), 'USD')) < 0.001);
    assert.equal(byKey[`${todayUtc()}/market`], 12.5);
    assert.ok(Math.abs(byKey[`${todayUtc()}/raw_jp`]! - (1500 * rate(todayUtc(), 'USD')) / rate(todayUtc(), 'JPY')) < 0.001);
  });

  it('limits to the last N days', async () => {
    const { body } = await stack.json(`/api/v2/cards/${cardId}/history?region=eu&days=1`);
    assert.deepEqual(body.points, []);
    const two = (await stack.json(`/api/v2/cards/${cardId}/history?region=eu&days=2`)).body;
    assert.deepEqual(
      two.points.map((p: { date: string }) => p.date),
      [daysAgo(1)],
    );
  });

  it('matches the stored demo history point for point', async () => {
    const card = (await stack.stores.pg.pool.query(`SELECT id FROM cards WHERE external_key = 'pokemontcg:base1-4'`)).rows[0];
    const { body } = await stack.json(`/api/v2/cards/${card.id}/history?region=us&days=365`);
    const expected = await chRows<{ date: string; amount: string; source: string; price_type: string }>(
      stack.stores.ch.client,
      `SELECT toString(p.as_of) AS date, toString(p.amount) AS amount, source, price_type FROM holo.price_points AS p FINAL
       WHERE variant_id = {v:UInt32} AND region = 'us' AND grading_company = 'raw' AND NOT is_outlier AND p.as_of >= {since:Date}
       ORDER BY p.as_of, source, price_type`,
      { v: body.variant_id, since: daysAgo(364) },
    );
    assert.ok(expected.length > 400, 'a year of us series');
    assert.deepEqual(
      body.points,
      expected.map((e) => ({ ...e, amount: Number(e.amount) })),
    );
  });

  it('never returns a demo outlier', async () => {
    const [outlier] = await chRows<{
      card_id: number;
      variant_id: number;
      region: string;
      as_of: string;
      source: string;
      price_type: string;
      amount: string;
    }>(
      stack.stores.ch.client,
      `SELECT card_id, variant_id, region, toString(p.as_of) AS as_of, source, price_type, toString(p.amount) AS amount FROM holo.price_points AS p
       WHERE is_outlier AND grading_company = 'raw' AND region IN ('eu', 'us') AND p.as_of >= {since:Date} AND game = 'pokemon' LIMIT 1`,
      { since: daysAgo(80) },
    );
    assert.ok(outlier, 'the demo generator plants outliers');
    const { body } = await stack.json(
      `/api/v2/cards/${outlier.card_id}/history?variant_id=${outlier.variant_id}&region=${outlier.region}&days=90`,
    );
    const same = body.points.filter(
      (p: { date: string; source: string; price_type: string }) =>
        p.date === outlier.as_of && p.source === outlier.source && p.price_type === outlier.price_type,
    );
    assert.deepEqual(same, []);
    assert.ok(body.points.length > 0);
  });

  it('rejects bad parameters with 422 and unknown variants with 404', async () => {
    for (const [q, loc] of [
      ['days=0', 'days'],
      ['days=3651', 'days'],
      ['days=x', 'days'],
      ['region=mars', 'region'],
      ['variant_id=abc', 'variant_id'],
      ['variantid=1', 'variantid'],
    ] as const) {
      const { status, body } = await stack.json(`/api/v2/cards/${cardId}/history?${q}`);
      assert.equal(status, 422, q);
      assert.deepEqual(body.detail[0].loc, ['query', loc], q);
    }
    assert.equal((await stack.json(`/api/v2/cards/${cardId}/history?days=3650`)).status, 200);
    const repeated = await stack.json(`/api/v2/cards/${cardId}/history?days=1&days=2`);
    assert.equal(repeated.status, 422);
    assert.equal(repeated.body.detail[0].type, 'type_error.string');
    assert.match(repeated.body.detail[0].msg, /repeated/);
    const { body } = await stack.json(`/api/v2/cards/${cardId}/history?region=mars`);
    assert.equal(body.detail[0].type, 'type_error.enumeration');
    assert.equal((await stack.json(`/api/v2/cards/${cardId}/history?variant_id=${variantB}`)).status, 200);
    const foreign = (await stack.json(`/api/v2/cards/${otherCardId}`)).body.printings[0]!.variants[0]!.id;
    assert.equal((await stack.json(`/api/v2/cards/${cardId}/history?variant_id=${foreign}`)).status, 404);
    assert.equal((await stack.json(`/api/v2/cards/987654321/history`)).status, 404);
  });
});

describe('loading prices', () => {
  it('never doubles a point when a batch is retried or re-fetched', async () => {
    const count = async () =>
      (
        await chRows<{ raw: string; final: string }>(
          stack.stores.ch.client,
          `SELECT (SELECT toString(count()) FROM holo.price_points WHERE card_id = {c:UInt32}) AS raw,
                (SELECT toString(count()) FROM holo.price_points FINAL WHERE card_id = {c:UInt32}) AS final`,
          { c: cardId },
        )
      )[0]!;
    const before = await count();
    const rows = [point({ region: 'us', source: 'us_market', price_type: 'market', currency: 'USD', amount: '12.50', as_of: todayUtc() })];
    const batch = { id: 'test-batch-1', ingestedAt: new Date() };
    // The first batch's first chunk held different rows, so reuse its exact content for the retry.
    await loadPricePoints(targets(), rows, { id: 'retry-batch', ingestedAt: batch.ingestedAt });
    const afterFirst = await count();
    await loadPricePoints(targets(), rows, { id: 'retry-batch', ingestedAt: batch.ingestedAt });
    assert.deepEqual(await count(), afterFirst, 'a retried insert is dropped by its deduplication token');
    await loadPricePoints(targets(), rows, { id: 'refetch-batch', ingestedAt: new Date() });
    assert.equal((await count()).final, before.final, 'the same observation under a new batch replaces, never adds');
    const { body } = await stack.json(`/api/v2/cards/${cardId}/history?region=us`);
    assert.equal(body.points.length, 1);
  });
});

describe('an interrupted first start', () => {
  it('generates the demo history again without a point counted twice, in price_points and the market view', async () => {
    const count = async (table: string) =>
      Number((await chRows<{ n: string }>(stack.stores.ch.client, `SELECT toString(count()) AS n FROM ${table}`))[0]!.n);
    const [{ batch } = { batch: '' }] = await chRows<{ batch: string }>(
      stack.stores.ch.client,
      `SELECT any(batch_id) AS batch FROM holo.price_points WHERE startsWith(batch_id, 'demo-') AND NOT startsWith(batch_id, 'demo-sealed')`,
    );
    const endDate = batch.slice('demo-'.length);
    const before = [(await stack.json('/api/v2/stats')).body.price_points, await count('holo.market_daily')];
    assert.equal(before[0], await count('holo.price_points'));
    // What a restart after a kill mid-load runs: the same generation steps over the same variants.
    await generateDemoHistory(stack.stores.pg.pool, stack.stores.ch.client, {
      days: stack.config.demoHistoryDays,
      endDate,
      batchId: batch,
      ingestedAt: new Date(`${endDate}T00:00:00Z`),
    });
    await announcePricesLanded(stack.stores.redis, stack.config.redisPrefix);
    assert.deepEqual([(await stack.json('/api/v2/stats')).body.price_points, await count('holo.market_daily')], before);
  });
});
