// Legacy prices, history and analytics over real stores, on cards whose whole history this test
// loads through the production write path, so every figure is checked against a value computed
// here from the loaded series: medians across sources and currencies, changes, volatility, the
// regression and its confidence, the market verdict, auction summaries, multi-series history.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadFxRates } from '../ingest/load/fxRates.js';
import { loadPricePoints } from '../ingest/load/pricePoints.js';
import { type PricePointRow } from '../ingest/pricePoint.js';
import {
  EbaySold,
  Prediction,
  PriceAggregates,
  PriceHistory,
  PriceHistoryMulti,
  PriceSnapshots,
  StashScore,
} from '../schemas/legacyPrices.js';
import { expect422 as expect422At } from './support/assertions.js';
import { createTestCards } from './support/catalogue.js';
import { daysAgo } from './support/clickhouseRows.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
const ids: Record<string, { card: number; normal: number; holofoil: number }> = {};
const USD_PER_EUR = 1.25;

// The steady card: two US sources and a European one, 40 days. Across sources the day's median is
// S(i) = 10.5 + 0.1 (39 − i) USD, i days ago: a straight line.
const A = (i: number) => 10 + 0.1 * (39 - i);
const S = (i: number) => A(i) + 0.5;
const money = (x: number) => x.toFixed(4);

function row(
  card: string,
  variant: 'normal' | 'holofoil',
  p: Omit<PricePointRow, 'card_id' | 'variant_id' | 'game' | 'is_outlier'> & { is_outlier?: boolean },
): PricePointRow {
  return { card_id: ids[card]!.card, variant_id: ids[card]![variant], game: 'test-analytics', is_outlier: false, ...p };
}
const raw = { grading_company: 'raw', grade: '' };

before(async () => {
  stack = await startStack({ demo: 'none' });
  const cards = await createTestCards(stack.stores.pg.pool, 'test-analytics', ['steady', 'short', 'jump']);
  for (const [name, c] of Object.entries(cards))
    ids[name] = { card: c.card, normal: c.variants['normal']!, holofoil: c.variants['holofoil']! };
  await loadFxRates(
    stack.stores.ch.client,
    Array.from({ length: 60 }, (_, i) => ({ day: daysAgo(i), currency: 'USD', rate: String(USD_PER_EUR) })),
    { id: 'test-fx', ingestedAt: new Date(), source: 'ecb' },
  );

  const points: PricePointRow[] = [];
  for (let i = 0; i < 40; i++) {
    points.push(
      row('steady', 'normal', {
        region: 'us',
        source: 'us_a',
        price_type: 'market',
        ...raw,
        currency: 'USD',
        amount: money(A(i)),
        as_of: daysAgo(i),
      }),
    );
    points.push(
      row('steady', 'normal', {
        region: 'us',
        source: 'us_b',
        price_type: 'market',
        ...raw,
        currency: 'USD',
        amount: money(A(i) + 1),
        as_of: daysAgo(i),
      }),
    );
    points.push(
      row('steady', 'normal', {
        region: 'eu',
        source: 'eu_c',
        price_type: 'trend',
        ...raw,
        currency: 'EUR',
        amount: money((A(i) + 0.5) / USD_PER_EUR),
        as_of: daysAgo(i),
      }),
    );
  }
  // Kept but flagged: never a price, never the all-time high.
  points.push(
    row('steady', 'normal', {
      region: 'us',
      source: 'us_a',
      price_type: 'market',
      ...raw,
      currency: 'USD',
      amount: '100.0000',
      as_of: daysAgo(3),
      observation_id: 'spike',
      is_outlier: true,
    }),
  );
  // Graded guide: PSA 10 for 6 days (a series of its own), loose/cib/new today (the spread tiers).
  for (let i = 0; i < 6; i++)
    points.push(
      row('steady', 'normal', {
        region: 'us',
        source: 'pricecharting',
        price_type: '',
        grading_company: 'psa',
        grade: '10',
        currency: 'USD',
        amount: money(200 + i),
        as_of: daysAgo(i),
      }),
    );
  // The guide's loose price is S(0) itself, so today's median across the four sources stays S(0).
  points.push(
    row('steady', 'normal', {
      region: 'us',
      source: 'pricecharting',
      price_type: 'raw_us',
      ...raw,
      currency: 'USD',
      amount: money(S(0)),
      as_of: daysAgo(0),
    }),
  );
  points.push(
    row('steady', 'normal', {
      region: 'us',
      source: 'pricecharting',
      price_type: '',
      grading_company: 'other',
      grade: '7',
      currency: 'USD',
      amount: '30.0000',
      as_of: daysAgo(0),
    }),
  );
  points.push(
    row('steady', 'normal', {
      region: 'us',
      source: 'pricecharting',
      price_type: '',
      grading_company: 'other',
      grade: '8',
      currency: 'USD',
      amount: '45.0000',
      as_of: daysAgo(0),
    }),
  );
  // Auction sales: raw sales of the holo (so the normal raw series stays the line above), graded of the normal.
  const sale = (variant: 'normal' | 'holofoil', id: string, company: string, grade: string, amount: string, day: number) =>
    row('steady', variant, {
      region: 'us',
      source: 'auction_sold',
      price_type: company === 'raw' ? 'last_sold' : '',
      grading_company: company,
      grade,
      currency: 'USD',
      amount,
      as_of: daysAgo(day),
      observation_id: id,
    });
  points.push(
    sale('holofoil', 's1', 'raw', '', '10.0000', 0),
    sale('holofoil', 's2', 'raw', '', '12.0000', 0),
    sale('holofoil', 's3', 'raw', '', '20.0000', 0),
  );
  points.push(
    sale('normal', 's4', 'psa', '10', '100.0000', 1),
    sale('normal', 's5', 'psa', '10', '140.0000', 1),
    sale('normal', 's6', 'bgs', '9.5', '90.0000', 8),
  );
  // Eight days for the short card; fourteen calm days and a doubling today for the jump card.
  for (let i = 0; i < 8; i++)
    points.push(
      row('short', 'normal', {
        region: 'us',
        source: 'us_a',
        price_type: 'market',
        ...raw,
        currency: 'USD',
        amount: money(5 + i),
        as_of: daysAgo(i),
      }),
    );
  for (let i = 0; i < 15; i++)
    points.push(
      row('jump', 'normal', {
        region: 'us',
        source: 'us_a',
        price_type: 'market',
        ...raw,
        currency: 'USD',
        amount: i === 0 ? '20.0000' : money(10 + (i % 2) * 0.1),
        as_of: daysAgo(i),
      }),
    );
  await loadPricePoints(stack.loadTargets(), points, { id: 'test-analytics', ingestedAt: new Date() });
});
after(async () => {
  await stack?.close();
});

const url = <const Path extends string>(card: string, path: Path) => `/api/cards/${ids[card]!.card}/${path}` as const;
const close = (actual: number | null, expected: number, tolerance = 0.011) =>
  assert.ok(actual !== null && Math.abs(actual - expected) <= tolerance, `${actual} ≈ ${expected}`);
const pct = (now: number, then: number) => ((now - then) / then) * 100;

describe('price history', () => {
  it('gives each source its daily price in USD and analyses the cross-source median', async () => {
    const { status, body } = await stack.json(url('steady', 'price-history?days=7'));
    assert.equal(status, 200);
    PriceHistory.parse(body);
    assert.equal(body.variant, 'normal');
    assert.equal(body.snapshots.length, 7 * 3 + 1);
    const today = body.snapshots.filter((s: { date: string }) => s.date === daysAgo(0));
    assert.deepEqual(
      today.map((s: { source: string; market_price: number }) => [s.source, s.market_price]),
      [
        ['eu_c', Number((A(0) + 0.5).toFixed(4))],
        ['pricecharting', S(0)],
        ['us_a', A(0)],
        ['us_b', A(0) + 1],
      ],
    );
    close(body.analysis.change_7d, pct(S(0), S(7)));
    close(body.analysis.change_30d, pct(S(0), S(30)));
    assert.equal(body.analysis.change_90d, null, 'no price 90 days back');
    const returns = Array.from({ length: 39 }, (_, i) => Math.log(S(i) / S(i + 1)));
    const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
    const sd = Math.sqrt(returns.reduce((a, r) => a + (r - mean) ** 2, 0) / (returns.length - 1));
    close(body.analysis.volatility, sd * 100, 0.006);
    assert.equal(body.analysis.trend, 'up');
    const oneSource = await stack.json(url('steady', 'price-history?days=30&source=us_b'));
    assert.ok(oneSource.body.snapshots.every((s: { source: string }) => s.source === 'us_b'));
    assert.equal(oneSource.body.snapshots.length, 30);
  });

  it('bounds days to 7, 30, 90, 180 or 365 and knows the variants', async () => {
    await expect422At(stack, url('steady', 'price-history?days=14'), ['query', 'days']);
    assert.equal((await stack.json(url('steady', 'price-history?variant=reverse-holo'))).status, 404);
    assert.equal((await stack.json('/api/cards/99999999/price-history')).status, 404);
    const holo = await stack.json(url('steady', 'price-history?variant=holofoil&days=7'));
    assert.deepEqual(
      holo.body.snapshots.map((s: { source: string }) => s.source),
      ['auction_sold'],
    );
  });

  it('lists every series with at least five days, most days first', async () => {
    const { body } = await stack.json(url('steady', 'price-history-multi'));
    PriceHistoryMulti.parse(body);
    assert.deepEqual(
      body.series.map((s: { key: string; total_points: number }) => [s.key, s.total_points]),
      [
        ['normal|raw|', 40],
        ['normal|psa|10', 6],
      ],
    );
    assert.equal(body.total_series, 2);
    assert.equal(body.min_points, 5);
    const rawSeries = body.series[0]!.points;
    assert.deepEqual(rawSeries.at(-1), { date: daysAgo(0), price: Number(S(0).toFixed(4)) });
  });

  it("gives one source's snapshots in its own currency, the busiest source by default", async () => {
    const eu = await stack.json(url('steady', 'price-history-snapshots?source=eu_c&days=3'));
    PriceSnapshots.parse(eu.body);
    assert.equal(eu.body.count, 3);
    assert.ok(eu.body.points.every((p: { currency: string }) => p.currency === 'EUR'));
    close(eu.body.points.at(-1)!.market_price, (A(0) + 0.5) / USD_PER_EUR, 0.0001);
    const byDefault = await stack.json(url('steady', 'price-history-snapshots?days=10'));
    assert.ok(['us_a', 'us_b'].includes(byDefault.body.source!), byDefault.body.source!);
    await expect422At(stack, url('steady', 'price-history-snapshots?days=366'), ['query', 'days']);
  });
});

describe('auction sales', () => {
  it('average per day, company and grade, and summarise per company and grade', async () => {
    const { body } = await stack.json(url('steady', 'ebay-sold?days=30'));
    EbaySold.parse(body);
    const summary = Object.fromEntries(
      body.summary.map((s: { grading_company: string; grade: string }) => [`${s.grading_company} ${s.grade}`, s]),
    );
    assert.deepEqual(summary['raw '], {
      grading_company: 'raw',
      grade: '',
      average_price: 14,
      median_price: 12,
      min_price: 10,
      max_price: 20,
      count: 3,
    });
    assert.deepEqual(summary['psa 10'], {
      grading_company: 'psa',
      grade: '10',
      average_price: 120,
      median_price: 120,
      min_price: 100,
      max_price: 140,
      count: 2,
    });
    assert.equal(body.total_grades, 3);
    assert.equal(body.total_sales_points, 3);
    const psa = await stack.json(url('steady', 'ebay-sold?grading_company=PSA&grade=10'));
    assert.deepEqual(psa.body.sales, [{ date: daysAgo(1), grading_company: 'psa', grade: '10', average_price: 120, count: 2 }]);
    const week = await stack.json(url('steady', 'ebay-sold?days=7'));
    assert.equal(
      week.body.summary.some((s: { grading_company: string }) => s.grading_company === 'bgs'),
      false,
      'the BGS sale is 8 days old',
    );
    await expect422At(stack, url('steady', 'ebay-sold?days=0'), ['query', 'days']);
    const recent = await stack.json(url('steady', 'recent-sales?window_days=7'));
    assert.deepEqual(recent.body.sales.map((s: { listing_id: string }) => s.listing_id).sort(), ['s1', 's2', 's3', 's4', 's5']);
  });
});

describe('aggregates, stash score and prediction', () => {
  it('compute deltas, the all-time high, the market verdict, guide tiers and velocity', async () => {
    const { status, body } = await stack.json(url('steady', 'price-aggregates'));
    assert.equal(status, 200);
    PriceAggregates.parse(body);
    close(body.current.price, S(0));
    close(body.deltas.d1.abs, S(0) - S(1));
    close(body.deltas.d30.pct, pct(S(0), S(30)));
    assert.equal(body.deltas.d365.abs, null);
    assert.equal(body.deltas.d7.anomaly, false, 'a steady trend is not an anomaly');
    assert.deepEqual(body.all_time_high, { price: Number(S(0).toFixed(2)), date: daysAgo(0) });
    assert.equal(body.point_count, 40);
    // Verdict: each source's median of its last 30 days, weighted by ln(1 + days).
    const median = (xs: number[]) =>
      [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! / 2 + [...xs].sort((a, b) => a - b)[Math.ceil(xs.length / 2) - 1]! / 2;
    const last30 = Array.from({ length: 30 }, (_, i) => i);
    const sources = [
      { source: 'eu_c', median: median(last30.map((i) => A(i) + 0.5)), n: 30 },
      { source: 'pricecharting', median: S(0), n: 1 },
      { source: 'us_a', median: median(last30.map(A)), n: 30 },
      { source: 'us_b', median: median(last30.map((i) => A(i) + 1)), n: 30 },
    ];
    const v = body.market_verdict;
    assert.deepEqual(
      v!.sources.map((s: { source: string; sample_size: number }) => [s.source, s.sample_size]),
      sources.map((s) => [s.source, s.n]),
    );
    const byPrice = [...sources].sort((a, b) => a.median - b.median);
    const total = byPrice.reduce((n, s) => n + Math.log(1 + s.n), 0);
    let acc = 0;
    const verdict = byPrice.find((s) => (acc += Math.log(1 + s.n)) >= total / 2)!.median;
    close(v!.price, verdict);
    assert.equal(v!.agreeing_sources, sources.filter((s) => Math.abs((s.median - verdict) / verdict) <= 0.15).length);
    close(v!.spread_pct, pct(byPrice.at(-1)!.median, byPrice[0]!.median));
    close(v!.region_bias, pct(sources[0]!.median, (sources[2]!.median + sources[3]!.median + S(0)) / 3));
    close(body.buy_sell_spread.tiers.loose.price, S(0));
    close(body.buy_sell_spread.tiers.new.spread_pct, pct(45, S(0)));
    // The raw sales are of the holo variant; the normal one has none.
    assert.deepEqual([body.sales_volume_30d, body.velocity.tier], [null, 'none']);
    const holo = await stack.json(url('steady', 'price-aggregates?variant=holofoil'));
    assert.deepEqual([holo.body.sales_volume_30d, holo.body.velocity.sample_30d, holo.body.velocity.tier], [3, 3, 'low']);
    const psa = await stack.json(url('steady', 'price-aggregates?grading_company=PSA&grade=10'));
    assert.deepEqual(psa.body.scope, { variant: 'normal', grading_company: 'psa', grade: '10' });
    // A grading company without a grade names no series (a schema-valid query, so not a 422).
    const gradeless = await stack.json(url('steady', 'price-aggregates?grading_company=psa'));
    assert.equal(gradeless.status, 404);
    assert.match(gradeless.body.detail, /needs a grade/);
  });

  it('flags a move out of line with the series, not a steady one', async () => {
    const { body } = await stack.json(url('jump', 'price-aggregates'));
    assert.equal(body.deltas.d1.anomaly, true);
    close(body.deltas.d1.pct, pct(20, 10.1));
  });

  it('scores a card from its documented components', async () => {
    const { body } = await stack.json(url('steady', 'stash-score'));
    StashScore.parse(body);
    const c = body.components;
    assert.equal(c.price_momentum, Math.round(50 + pct(S(0), S(30))));
    assert.equal(c.rarity, 60);
    assert.equal(c.liquidity, Math.min(100, 3 * 3 + 4 * 10), 'three graded sales of the normal variant in 30 days, four sources');
    assert.equal(body.score, Math.round(0.35 * c.price_momentum + 0.2 * c.rarity + 0.25 * c.liquidity + 0.2 * c.source_agreement));
    assert.equal(body.label, body.score >= 75 ? 'strong' : body.score >= 50 ? 'solid' : body.score >= 25 ? 'speculative' : 'weak');
  });

  it('predicts along the least-squares line, with confidence from the number of days', async () => {
    const { body } = await stack.json(url('steady', 'predict?days_ahead=30'));
    Prediction.parse(body);
    // S is a straight line: slope 0.1 a day, and the fit reproduces it exactly.
    close(body.slope_per_day, 0.1, 0.0001);
    close(body.predicted_price, S(0) + 3);
    close(body.current_price, S(0));
    assert.deepEqual([body.data_points, body.confidence, body.trend], [40, 'high', 'up']);
    assert.equal(body.future_points.length, 30);
    assert.deepEqual(body.future_points.at(-1), { date: daysAgo(-30), price: body.predicted_price });
    const short = await stack.json(url('short', 'predict'));
    assert.deepEqual([short.body.data_points, short.body.confidence], [8, 'low']);
    // The short card falls by 1 a day: 5 + i, i days ago.
    close(short.body.predicted_price, Math.max(0.01, 5 - 30), 0.0001);
    const jump = await stack.json(url('jump', 'predict?days_ahead=365'));
    assert.deepEqual([jump.body.data_points, jump.body.confidence], [15, 'medium']);
    assert.equal(jump.body.future_points.at(-1)!.date, daysAgo(-365));
    await expect422At(stack, url('steady', 'predict?days_ahead=6'), ['query', 'days_ahead']);
    await expect422At(stack, url('steady', 'predict?days_ahead=366'), ['query', 'days_ahead']);
  });
});
