// Market and price-intelligence endpoints over real stores, on a synthetic game whose every price
// this test loads through the production write path (no demo data: the market is exactly this).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadFxRates } from '../ingest/load/fxRates.js';
import { loadPricePoints } from '../ingest/load/pricePoints.js';
import { type PricePointRow } from '../ingest/pricePoint.js';
import { Deals, Movers, Overview, PriceIntelligenceCard, Spread } from '../schemas/market.js';
import { expect422 as expect422At } from './support/assertions.js';
import { createTestCards, type TestCard } from './support/catalogue.js';
import { chRows, daysAgo } from './support/clickhouseRows.js';
import { startStack, type Stack } from './support/stack.js';
import { announcePricesLanded } from '../sql/stores/priceChannels.js';

let stack: Stack;
let cards: Record<string, TestCard>;
let older: Record<string, TestCard>;
const USD_PER_EUR = 1.25;
const JPY_PER_EUR = 160;

// Eight days of ungraded US market prices per card, index = days ago (0 = today).
const SERIES: Record<string, number[]> = {
  up: [15, 14, 13.5, 13, 12, 11.5, 11, 10],
  down: [15, 16, 17, 18, 18, 19, 19.5, 20],
  flat: [10, 10, 10, 10, 10, 10, 10, 10],
  swing: [10, 14, 10, 14, 10, 14, 10, 10],
  penny: [0.9, 0.8, 0.7, 0.6, 0.6, 0.5, 0.5, 0.5],
  // 25 days on a straight line, +0.20 a day: the one series long enough to project.
  climber: Array.from({ length: 25 }, (_, i) => 10 + 0.2 * (24 - i)),
};

before(async () => {
  stack = await startStack({ demo: 'none' });
  cards = await createTestCards(stack.stores.pg.pool, 'test-market', [...Object.keys(SERIES), 'newsource'], ['normal']);
  await loadFxRates(
    stack.stores.ch.client,
    Array.from({ length: 20 }, (_, i) => [
      { day: daysAgo(i), currency: 'USD', rate: String(USD_PER_EUR) },
      { day: daysAgo(i), currency: 'JPY', rate: String(JPY_PER_EUR) },
    ]).flat(),
    { id: 'market-fx', ingestedAt: new Date(), source: 'ecb' },
  );
  const row = (
    name: string,
    p: Pick<PricePointRow, 'region' | 'source' | 'price_type' | 'currency' | 'amount' | 'as_of'>,
  ): PricePointRow => ({
    card_id: cards[name]!.card,
    variant_id: cards[name]!.variants['normal']!,
    game: 'test-market',
    grading_company: 'raw',
    grade: '',
    is_outlier: false,
    ...p,
  });
  const points: PricePointRow[] = [];
  for (const [name, prices] of Object.entries(SERIES))
    prices.forEach((price, i) =>
      points.push(
        row(name, { region: 'us', source: 'us_a', price_type: 'market', currency: 'USD', amount: price.toFixed(4), as_of: daysAgo(i) }),
      ),
    );
  // A second source that starts today far above the first: not a move of the card.
  for (let i = 0; i < 8; i++)
    points.push(
      row('newsource', { region: 'us', source: 'us_a', price_type: 'market', currency: 'USD', amount: '10.0000', as_of: daysAgo(i) }),
    );
  points.push(
    row('newsource', { region: 'us', source: 'us_b', price_type: 'market', currency: 'USD', amount: '30.0000', as_of: daysAgo(0) }),
  );
  // A European quote for the flat card (EUR 10 = USD 12.50) and a cheap US ask for the up card.
  points.push(row('flat', { region: 'eu', source: 'eu_c', price_type: 'trend', currency: 'EUR', amount: '10.0000', as_of: daysAgo(0) }));
  points.push(row('up', { region: 'us', source: 'us_a', price_type: 'low', currency: 'USD', amount: '9.0000', as_of: daysAgo(0) }));
  // A second game with a month of prices (the first game's series are a week or so long): the
  // older movers compare 30 days. Moves of a few percent a week, so the week's top gainer stays "up".
  older = await createTestCards(stack.stores.pg.pool, 'test-older', ['sinking', 'lifting'], ['normal']);
  for (let i = 0; i <= 30; i++)
    for (const [name, amount] of [
      ['sinking', 14 + 0.2 * i],
      ['lifting', 13 - 0.1 * i],
    ] as const)
      points.push({
        card_id: older[name]!.card,
        variant_id: older[name]!.variants['normal']!,
        game: 'test-older',
        grading_company: 'raw',
        grade: '',
        is_outlier: false,
        region: 'us',
        source: 'us_a',
        price_type: 'market',
        currency: 'USD',
        amount: amount.toFixed(4),
        as_of: daysAgo(i),
      });
  await loadPricePoints(stack.loadTargets(), points, { id: 'test-market', ingestedAt: new Date() });
});
after(async () => {
  await stack?.close();
});

const change = (name: string, days: number) => ((SERIES[name]![0]! - SERIES[name]![days]!) / SERIES[name]![days]!) * 100;
const close = (a: number | null, b: number, tolerance = 0.011) => assert.ok(a !== null && Math.abs(a - b) <= tolerance, `${a} ≈ ${b}`);

describe('movers', () => {
  it('rank gainers, losers and the most volatile, per source series, without pennies', async () => {
    const { status, body } = await stack.json('/api/market/movers?tcg=test-market&period=7d&limit=50');
    assert.equal(status, 200);
    Movers.parse(body);
    const byName = (list: { name: string }[]) => list.map((m) => m.name.replace('test-market ', ''));
    assert.equal(byName(body.gainers)[0], 'up');
    assert.equal(byName(body.losers)[0], 'down');
    assert.equal(byName(body.most_volatile)[0], 'swing');
    assert.ok(!byName(body.gainers).includes('penny'), 'under $1 now');
    const up = body.gainers[0];
    close(up!.change_pct, change('up', 7));
    close(up!.change_abs, 5);
    close(up!.current_price, 15);
    const newsource = body.gainers.find((m: { name: string }) => m.name.endsWith('newsource'));
    close(newsource!.change_pct, 0);
    const sorted = body.gainers.map((m: { change_pct: number }) => m.change_pct);
    assert.deepEqual(
      sorted,
      [...sorted].sort((a, b) => b - a),
    );
    assert.equal(body.as_of, daysAgo(0));
    const one = await stack.json('/api/market-movers?tcg=test-market&limit=1');
    assert.deepEqual([one.body.gainers.length, one.body.gainers[0]!.name], [1, up!.name]);
    await expect422At(stack, '/api/market/movers?period=1d', ['query', 'period']);
    await expect422At(stack, '/api/market/movers?limit=51', ['query', 'limit']);
    await expect422At(stack, '/api/market/movers?tcg=Not%20A%20Game', ['query', 'tcg']);
    // Older movers: a month, each direction only its own sign.
    const month = async (direction: string) =>
      (await stack.json(`/api/market/older-movers?direction=${direction}&tcg_slug=test-older`)).body as {
        name: string;
        change_pct: number;
      }[];
    const [fell, rose] = [await month('down'), await month('up')];
    assert.deepEqual([fell.map((m) => m.name), rose.map((m) => m.name)], [['test-older sinking'], ['test-older lifting']]);
    close(fell[0]!.change_pct, ((14 - 20) / 20) * 100);
    close(rose[0]!.change_pct, ((13 - 10) / 10) * 100);
  });

  it('sum the market index over series priced on both days', async () => {
    const { body } = await stack.json('/api/market/overview?period=7d');
    Overview.parse(body);
    const game = body.games.find((g: { tcg_slug: string }) => g.tcg_slug === 'test-market');
    // Every us_a series has both days (newsource's us_b only today); newsource's us_a is flat at 10.
    const both = Object.keys(SERIES)
      .map((n) => [SERIES[n]![0]!, SERIES[n]![7]!] as const)
      .concat([[10, 10] as const]);
    close(
      game!.value_now,
      both.reduce((s, [now]) => s + now, 0),
    );
    close(
      game!.value_then,
      both.reduce((s, [, then]) => s + then, 0),
    );
    const count = (f: (now: number, then: number) => boolean) => both.filter(([now, then]) => f(now, then)).length;
    assert.deepEqual(
      [game!.rising, game!.falling, game!.holding],
      [count((n, t) => n > t * 1.01), count((n, t) => n < t * 0.99), count((n, t) => n >= t * 0.99 && n <= t * 1.01)],
    );
    assert.equal(body.top_gainer!.name, 'test-market up');
    const radar = await stack.json('/api/market/radar-stats');
    const r = radar.body.games.find((g: { tcg_slug: string }) => g.tcg_slug === 'test-market');
    close(r!.rising_pct, (count((n, t) => n > t * 1.01) / both.length) * 100);
  });
});

describe('lists', () => {
  it('find asks below the market, and sources that disagree', async () => {
    const deals = await stack.json('/api/market/best-deals?tcg_slug=test-market');
    Deals.parse(deals.body);
    assert.deepEqual(
      deals.body.items.map((d: { name: string }) => d.name),
      ['test-market up'],
    );
    close(deals.body.items[0]!.discount_pct, (1 - 9 / 15) * 100);
    const spread = await stack.json('/api/market/spread?tcg_slug=test-market&min_spread_pct=20');
    Spread.parse(spread.body);
    const names = spread.body.items.map((s: { name: string }) => s.name);
    assert.deepEqual(names.sort(), ['test-market flat', 'test-market newsource']);
    const flat = spread.body.items.find((s: { name: string }) => s.name === 'test-market flat');
    close(flat!.spread_pct, ((10 * USD_PER_EUR - 10) / 10) * 100);
    assert.deepEqual([flat!.cheapest_source, flat!.dearest_source], ['us_a', 'eu_c']);
  });

  it('project the steadiest climbers along their least-squares line, and show the newest updates', async () => {
    const { body } = await stack.json('/api/market/trending-predictions?tcg_slug=test-market&days_ahead=30');
    // Only the climber has the 10 days a projection needs; its line is exact: +0.20 a day.
    assert.deepEqual(
      body.items.map((t: { name: string }) => t.name),
      ['test-market climber'],
    );
    const t = body.items[0];
    close(t!.slope_per_day, 0.2, 0.0001);
    close(t!.predicted_price, SERIES['climber']![0]! + 0.2 * 30);
    assert.deepEqual([t!.data_points, t!.confidence], [25, 'high']);
    const rising = await stack.json('/api/market/rising?tcg_slug=test-market');
    assert.deepEqual(
      rising.body.items.map((x: { name: string }) => x.name),
      ['test-market climber'],
    );
    const recent = await stack.json('/api/market/recent?tcg_slug=test-market&limit=100');
    const up = recent.body.items.find((x: { name: string }) => x.name === 'test-market up');
    assert.deepEqual([up!.price, up!.previous_price, up!.date], [15, 14, daysAgo(0)]);
    close(up!.change_pct, ((15 - 14) / 14) * 100);
  });
});

describe('price intelligence', () => {
  it('converts with the newest reference rate, in both directions and across currencies', async () => {
    const usdEur = await stack.json('/api/price-intelligence/fx/rate');
    assert.deepEqual(usdEur.body, { from_currency: 'USD', to_currency: 'EUR', rate: 1 / USD_PER_EUR, date: daysAgo(0), source: 'ecb' });
    const eurJpy = await stack.json('/api/price-intelligence/fx/rate?from_currency=EUR&to_currency=JPY');
    assert.equal(eurJpy.body.rate, JPY_PER_EUR);
    const usdJpy = await stack.json('/api/price-intelligence/fx/rate?from_currency=USD&to_currency=JPY');
    assert.equal(usdJpy.body.rate, JPY_PER_EUR / USD_PER_EUR);
    assert.equal((await stack.json('/api/price-intelligence/fx/rate?from_currency=XYZ')).status, 404);
    await expect422At(stack, '/api/price-intelligence/fx/rate?from_currency=usd', ['query', 'from_currency']);
  });

  it("gives a card's euro price per source, adjusted for condition", async () => {
    const id = cards['flat']!.card;
    const nm = await stack.json(`/api/price-intelligence/card/${id}`);
    PriceIntelligenceCard.parse(nm.body);
    const eu = nm.body.source_breakdown.find((s: { source: string }) => s.source === 'eu_c');
    const us = nm.body.source_breakdown.find((s: { source: string }) => s.source === 'us_a');
    close(eu!.median_eur, 10);
    close(us!.median_eur, 10 / USD_PER_EUR);
    assert.equal(us!.n_listings, 8);
    const lp = await stack.json(`/api/price-intelligence/card/${id}?condition=LP`);
    close(lp.body.price_summary.high_eur, 10 * 0.85);
    assert.equal(lp.body.scope.condition_factor, 0.85);
    const foil = await stack.json(`/api/price-intelligence/card/${id}?foil_status=foil`);
    assert.deepEqual(foil.body.source_breakdown, []);
    assert.equal((await stack.json('/api/price-intelligence/card/99999999')).status, 404);
    // A comparison names the cards it could not find instead of failing as a whole.
    const compared = await stack.json(`/api/price-intelligence/compare?ids=${id},99999999`);
    assert.equal(compared.status, 200);
    assert.deepEqual(
      compared.body.items.map((c: { card_id: number }) => c.card_id),
      [id],
    );
    assert.deepEqual(compared.body.missing, [99999999]);
    // An id no integer column holds is a 422, not a database error.
    await expect422At(stack, `/api/price-intelligence/compare?ids=${id},5469340066`, ['query', 'ids']);
    const history = await stack.json(`/api/price-intelligence/history?card_id=${cards['up']!.card}&days=2`);
    assert.deepEqual(history.body.points, [
      { date: daysAgo(1), market_price_eur: 14 / USD_PER_EUR },
      { date: daysAgo(0), market_price_eur: 15 / USD_PER_EUR },
    ]);
  });

  it('agree with the stores in every count', async () => {
    const n = (await chRows<{ n: string }>(stack.stores.ch.client, 'SELECT toString(count()) AS n FROM holo.price_points'))[0]!.n;
    await stack.stores.pg.pool.query(
      `INSERT INTO users (username, email, password_hash, is_seller) VALUES ('seller1', 's1@example.com', 'x', true), ('buyer1', 'b1@example.com', 'x', false)`,
    );
    const stats = await stack.json('/api/market/stats');
    assert.equal(stats.body.total_prices, Number(n));
    assert.deepEqual([stats.body.total_users, stats.body.total_sellers], [2, 1]);
    const detailed = await stack.json('/api/stats/detailed');
    assert.equal(detailed.body.totals.price_points, Number(n));
    const pi = await stack.json('/api/price-intelligence/stats');
    assert.equal(pi.body.price_points, Number(n));
    const sources = await stack.json('/api/price-intelligence/sources');
    assert.deepEqual(
      sources.body.items.map((s: { source: string }) => s.source),
      ['eu_c', 'us_a', 'us_b'],
    );
  });
});

describe("price lists (the spec's pathless price operations)", () => {
  const eur = (usd: number) => Math.round((usd / USD_PER_EUR) * 100) / 100;

  it("list a card's latest prices by source, in its condition, with paging", async () => {
    const flat = cards['flat']!.card;
    const nm = await stack.json(`/api/price-intelligence/card/${flat}/prices`);
    assert.equal(nm.status, 200);
    assert.deepEqual(
      nm.body.items.map((i: any) => [i.source, i.region, i.price_type, i.currency, i.amount, i.amount_eur, i.as_of]),
      [
        ['eu_c', 'eu', 'trend', 'EUR', 10, 10, daysAgo(0)],
        ['us_a', 'us', 'market', 'USD', 10, eur(10), daysAgo(0)],
      ],
    );
    assert.deepEqual([nm.body.total, nm.body.condition, nm.body.items[0]!.foil_status], [2, 'NM', 'nonfoil']);
    const hp = await stack.json(`/api/price-intelligence/card/${flat}/prices?condition=HP&source=us_a`);
    assert.deepEqual(
      hp.body.items.map((i: any) => [i.source, i.amount, i.amount_eur]),
      [['us_a', 5, eur(5)]],
    );
    const up = cards['up']!.card;
    const first = await stack.json(`/api/price-intelligence/card/${up}/prices?limit=1`);
    const second = await stack.json(`/api/price-intelligence/card/${up}/prices?limit=1&offset=1`);
    assert.deepEqual([first.body.total, first.body.items.length, second.body.items.length], [2, 1, 1]);
    assert.deepEqual(new Set([first.body.items[0]!.price_type, second.body.items[0]!.price_type]), new Set(['low', 'market']));
    const foil = await stack.json(`/api/price-intelligence/card/${flat}/prices?foil_status=foil`);
    assert.deepEqual([foil.status, foil.body.items, foil.body.total], [200, [], 0]);
    assert.equal((await stack.json('/api/price-intelligence/card/99999999/prices')).status, 404);
    await expect422At(stack, `/api/price-intelligence/card/${flat}/prices?limit=201`, ['query', 'limit']);
    await expect422At(stack, `/api/price-intelligence/card/${flat}/prices?source=Bad!`, ['query', 'source']);
    await expect422At(stack, `/api/price-intelligence/card/${flat}/prices?condition=mint`, ['query', 'condition']);
  });

  it("give a card's daily euro series per source between two days", async () => {
    const up = cards['up']!.card;
    const three = await stack.json(`/api/price-intelligence/card/${up}/series?start_date=${daysAgo(2)}&end_date=${daysAgo(0)}`);
    assert.equal(three.status, 200);
    assert.deepEqual(three.body.points, [
      { date: daysAgo(2), source: 'us_a', market_price_eur: eur(13.5) },
      { date: daysAgo(1), source: 'us_a', market_price_eur: eur(14) },
      { date: daysAgo(0), source: 'us_a', market_price_eur: eur(15) },
    ]);
    const byDefault = await stack.json(`/api/price-intelligence/card/${up}/series`);
    assert.deepEqual([byDefault.body.start_date, byDefault.body.end_date, byDefault.body.points.length], [daysAgo(29), daysAgo(0), 8]);
    const flat = cards['flat']!.card;
    const eu = await stack.json(`/api/price-intelligence/card/${flat}/series?source=eu_c`);
    assert.deepEqual(eu.body.points, [{ date: daysAgo(0), source: 'eu_c', market_price_eur: 10 }]);
    assert.equal(eu.body.source, 'eu_c');
    await expect422At(stack, `/api/price-intelligence/card/${up}/series?start_date=${daysAgo(0)}&end_date=${daysAgo(1)}`, [
      'query',
      'start_date',
    ]);
    await expect422At(stack, `/api/price-intelligence/card/${up}/series?start_date=2024-01-01&end_date=2025-06-01`, [
      'query',
      'start_date',
    ]);
    await expect422At(stack, `/api/price-intelligence/card/${up}/series?end_date=2026-02-30`, ['query', 'end_date']);
    assert.equal((await stack.json('/api/price-intelligence/card/99999999/series')).status, 404);
  });

  it("summarise a card's period per source and across sources", async () => {
    const up = await stack.json(`/api/price-intelligence/card/${cards['up']!.card}/summary?period=7d`);
    assert.equal(up.status, 200);
    const expected = { days: 7, first: eur(11), last: eur(15), low: eur(11), high: eur(15) };
    const { mean: _m, change_pct: upChange, ...upStats } = up.body.overall;
    assert.deepEqual(upStats, expected);
    close(upChange, ((eur(15) - eur(11)) / eur(11)) * 100);
    assert.deepEqual([up.body.by_source.length, up.body.by_source[0]!.source, up.body.start_date], [1, 'us_a', daysAgo(6)]);
    // Two sources today (8 and 24 euros): the overall day is their median, 16.
    const fresh = await stack.json(`/api/price-intelligence/card/${cards['newsource']!.card}/summary`);
    assert.deepEqual([fresh.body.period, fresh.body.overall.last, fresh.body.overall.first], ['30d', 16, eur(10)]);
    assert.deepEqual(
      fresh.body.by_source.map((s: any) => [s.source, s.days, s.last]),
      [
        ['us_a', 8, eur(10)],
        ['us_b', 1, eur(30)],
      ],
    );
    assert.equal((await stack.json(`/api/price-intelligence/card/${cards['up']!.card}/summary?period=1y`)).body.start_date, daysAgo(364));
    await expect422At(stack, `/api/price-intelligence/card/${cards['up']!.card}/summary?period=2y`, ['query', 'period']);
  });

  it("list a set's cards with each source's latest market price", async () => {
    const [{ set_id: setId }] = (await stack.stores.pg.pool.query(`SELECT set_id FROM cards WHERE id = $1`, [cards['up']!.card])).rows;
    const all = await stack.json(`/api/price-intelligence/set/${setId}/prices?limit=200`);
    assert.equal(all.status, 200);
    assert.equal(all.body.total, 9, 'six US market series, the flat card in Europe, the new card at two sources; no ask prices');
    const usB = await stack.json(`/api/price-intelligence/set/${setId}/prices?source=us_b`);
    assert.deepEqual(
      usB.body.items.map((i: any) => [i.card_id, i.market_price, i.market_price_eur, i.currency]),
      [[cards['newsource']!.card, 30, eur(30), 'USD']],
    );
    assert.equal((await stack.json(`/api/price-intelligence/set/${setId}/prices?limit=2`)).body.items.length, 2);
    assert.deepEqual((await stack.json(`/api/price-intelligence/set/${setId}/prices?variant=holofoil`)).body.items, []);
    assert.equal((await stack.json('/api/price-intelligence/set/2147483647/prices')).status, 404);
    await expect422At(stack, `/api/price-intelligence/set/${setId}/prices?variant=Holo%20Foil`, ['query', 'variant']);
    await expect422At(stack, `/api/price-intelligence/set/${setId}/prices?limit=0`, ['query', 'limit']);
  });
});

// Last: it adds a day after today to this file's market.
describe('the newest complete day', () => {
  it('keeps movers and the overview on the last day every source has reported, until the late one lands', async () => {
    const tomorrow = daysAgo(-1);
    const day = (name: string, source: string, amount: number): PricePointRow => ({
      card_id: cards[name]!.card,
      variant_id: cards[name]!.variants['normal']!,
      game: 'test-market',
      region: 'us',
      source,
      price_type: 'market',
      grading_company: 'raw',
      grade: '',
      currency: 'USD',
      amount: amount.toFixed(4),
      as_of: tomorrow,
      is_outlier: false,
    });
    const asOf = async () => {
      await announcePricesLanded(stack.stores.redis, stack.config.redisPrefix);
      const movers = await stack.json('/api/market/movers?tcg=test-market&period=7d&limit=50');
      const overview = await stack.json('/api/market/overview?period=7d');
      const spread = await stack.json('/api/market/spread?tcg_slug=test-market&min_spread_pct=1');
      const newsource = spread.body.items.find((i: { card_id: number }) => i.card_id === cards['newsource']!.card);
      return { movers: movers.body, overview: overview.body, newsourceSpread: newsource?.spread_pct ?? null };
    };
    // Tomorrow morning: us_a has landed for every card (newsource now at us_b's 30), us_b (which
    // reported today) not yet.
    await loadPricePoints(
      stack.loadTargets(),
      [...Object.keys(SERIES), 'newsource'].map((name) => day(name, 'us_a', name === 'newsource' ? 30 : SERIES[name]![0]!)),
      { id: 'tomorrow-us-a', ingestedAt: new Date() },
    );
    const partial = await asOf();
    assert.equal(partial.movers.as_of, daysAgo(0), 'tomorrow is not complete: us_b is missing');
    assert.equal(partial.overview.as_of, daysAgo(0));
    const up = partial.movers.gainers.find((m: { name: string }) => m.name.endsWith(' up'));
    close(up!.change_pct, change('up', 7));
    // The spread too is measured on the complete day: today, us_a at 10 against us_b at 30.
    close(partial.newsourceSpread, 200);

    // us_b lands: tomorrow is complete, and the week is measured from it.
    await loadPricePoints(stack.loadTargets(), [day('newsource', 'us_b', 30)], { id: 'tomorrow-us-b', ingestedAt: new Date() });
    const complete = await asOf();
    assert.equal(complete.movers.as_of, tomorrow);
    assert.equal(complete.overview.as_of, tomorrow);
    const upNow = complete.movers.gainers.find((m: { name: string }) => m.name.endsWith(' up'));
    close(upNow!.change_pct, ((SERIES['up']![0]! - SERIES['up']![6]!) / SERIES['up']![6]!) * 100);
    assert.ok(complete.movers.gainers.length > 0 && complete.movers.losers.length > 0);
    assert.equal(complete.newsourceSpread, null, 'both sources at 30 on the complete day');
  });
});
