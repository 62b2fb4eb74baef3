// Source adapters on the real upstream samples in shared/data (and a PriceCharting fixture
// written from its published header), including malformed rows and unreadable feeds.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { z } from 'zod';
import { repoRoot } from '../sql/runtime/paths.js';
import { parseCardmarketGuide } from '../ingest/sources/cardmarketGuide.js';
import { parseEcbRates } from '../ingest/sources/ecbRates.js';
import { parsePokemontcgIo } from '../ingest/sources/pokemontcgIo.js';
import { parsePriceChartingCsv } from '../ingest/sources/priceChartingCsv.js';
import { parseScryfallPrices } from '../ingest/sources/scryfallPrices.js';
import { FeedFormatError, money, upstreamDayRange } from '../ingest/sources/types.js';

const prices = path.resolve(repoRoot, '..', 'shared', 'data', 'prices');
const read = (...p: string[]) => fs.readFileSync(path.join(prices, ...p), 'utf8');

describe('money', () => {
  it('keeps prices as exact decimal text and refuses what is not a price', () => {
    assert.equal(money(0.1), '0.1');
    assert.equal(money('$1,013.52'), '1013.52');
    assert.equal(money(null), null);
    assert.equal(money(''), null);
    for (const bad of ['-4.00', '1.x0', 'NaN', Infinity, {}, '1e5']) assert.throws(() => money(bad));
  });
});

describe('ECB reference rates', () => {
  it('reads every day and currency of the 90-day file', () => {
    const { rates, rejected } = parseEcbRates(read('ecb-eurofxref', 'eurofxref-hist-90d.xml'));
    assert.deepEqual(rejected, []);
    const days = new Set(rates.map((r) => r.day));
    assert.equal(days.size, 61);
    assert.ok([...days].every((d) => d >= '2023-11-30' && d <= '2024-02-27'));
    const daily = parseEcbRates(read('ecb-eurofxref', 'eurofxref-daily.xml')).rates;
    assert.equal(daily.length, 30);
    assert.deepEqual(
      daily.find((r) => r.currency === 'USD'),
      { day: '2024-02-27', currency: 'USD', rate: '1.0856' },
    );
  });

  it('quarantines bad entries and fails on an unreadable feed', () => {
    const xml = `<gesmes:Envelope xmlns:gesmes="g" xmlns="e"><Cube><Cube time="2024-01-02"><Cube currency="USD" rate="1.1"/><Cube currency="usd" rate="1"/><Cube currency="JPY" rate="-3"/></Cube><Cube time="yesterday"/></Cube></gesmes:Envelope>`;
    const { rates, rejected } = parseEcbRates(xml);
    assert.deepEqual(rates, [{ day: '2024-01-02', currency: 'USD', rate: '1.1' }]);
    assert.equal(rejected.length, 3);
    assert.throws(() => parseEcbRates('<html>maintenance</html>'), FeedFormatError);
  });
});

describe('Cardmarket price guide', () => {
  it('reads the real Digimon guide with foil twins, skipping empty prices and zero foil trends', async () => {
    const { rows, rejected, createdAt } = await parseCardmarketGuide(read('cardmarket-digimon', 'price_guide_17.json'));
    assert.equal(createdAt, '2026-07-14T02:44:49+0200');
    assert.deepEqual(rejected, []);
    const first = rows.filter((r) => r.ref.value === '620001');
    assert.deepEqual(
      first.map((r) => [r.finish, r.price_type, r.amount]),
      [
        ['normal', 'avg', '0.23'],
        ['normal', 'low', '0.02'],
        ['normal', 'trend', '0.19'],
        ['normal', 'avg1', '0.2'],
        ['normal', 'avg7', '0.17'],
        ['normal', 'avg30', '0.16'],
      ],
    );
    assert.ok(rows.every((r) => r.region === 'eu' && r.currency === 'EUR' && r.as_of === '2026-07-14' && r.grading_company === 'raw'));
    // This export prices no foils (every foil trend is 0 or null): no foil row may appear.
    assert.ok(rows.every((r) => r.finish === 'normal'));
    const guide = JSON.parse(read('cardmarket-digimon', 'price_guide_17.json')) as { priceGuides: Record<string, unknown>[] };
    const expected = guide.priceGuides.reduce(
      (n, g) =>
        n +
        ['avg', 'low', 'trend', 'avg1', 'avg7', 'avg30'].reduce(
          (m, f) => m + (Number(g[f]) > 0 ? 1 : 0) + (Number(g[`${f}-foil`]) > 0 ? 1 : 0),
          0,
        ),
      0,
    );
    assert.equal(rows.length, expected);
  });

  it('rejects malformed entries with a reason and keeps the rest', async () => {
    const feed = JSON.stringify({
      createdAt: '2026-11-21T03:00:00+0100',
      priceGuides: [
        { idProduct: 1, trend: 2.5, 'trend-holo': 9 },
        { idProduct: 'x', trend: 1 },
        { idProduct: 2, trend: 'cheap', avg: 1.5 },
      ],
    });
    const { rows, rejected } = await parseCardmarketGuide(feed);
    assert.deepEqual(
      rows.map((r) => [r.ref.value, r.finish, r.price_type, r.amount]),
      [
        ['1', 'normal', 'trend', '2.5'],
        ['1', 'foil', 'trend', '9'],
        ['2', 'normal', 'avg', '1.5'],
      ],
    );
    assert.deepEqual(
      rejected.map((r) => r.ref),
      ['"x"', '2'],
    );
    await assert.rejects(parseCardmarketGuide('{"priceGuides": 3}'), FeedFormatError);
    await assert.rejects(parseCardmarketGuide('<html>'), FeedFormatError);
  });

  it('refuses a guide whose createdAt is no calendar day, or out of range, as a format error: it dates every row', async () => {
    const days = upstreamDayRange('2030-01-03');
    const guide = (createdAt: string) => JSON.stringify({ createdAt, priceGuides: [{ idProduct: 1, trend: 2.5 }] });
    assert.equal((await parseCardmarketGuide(guide('2030-01-04T01:00:00+0200'), 'cardmarket', days)).rows[0]!.as_of, '2030-01-04');
    for (const createdAt of [
      '2026-02-30T02:44:49+0200',
      '9999-12-31T00:00:00+0000',
      '0000-01-01T00:00:00+0000',
      '2030-01-05T00:00:00+0000',
    ])
      await assert.rejects(
        parseCardmarketGuide(guide(createdAt), 'cardmarket', days),
        (e: unknown) =>
          e instanceof FeedFormatError &&
          e.message === `price guide createdAt is not on a day from 1990-01-01 to 2030-01-04: ${JSON.stringify(createdAt)}`,
      );
  });
});

describe('pokemontcg.io cards', () => {
  it('reads per-finish TCGplayer prices and the Cardmarket block of the recorded responses', async () => {
    const { rows, rejected } = await parsePokemontcgIo(read('pokemontcg-io-api', 'pokemon-tcg-sdk-php', 'cards', 'find.json'));
    assert.deepEqual(rejected, []);
    const us = rows.filter((r) => r.region === 'us');
    assert.deepEqual(
      us.map((r) => [r.ref.value, r.finish, r.price_type, r.amount, r.as_of]),
      [
        ['xy7-57', 'holofoil', 'low', '3.7', '2021-03-12'],
        ['xy7-57', 'holofoil', 'mid', '8', '2021-03-12'],
        ['xy7-57', 'holofoil', 'high', '14.9', '2021-03-12'],
        ['xy7-57', 'holofoil', 'market', '6', '2021-03-12'],
        ['xy7-57', 'holofoil', 'direct_low', '9.99', '2021-03-12'],
      ],
    );
    const eu = rows.filter((r) => r.region === 'eu');
    assert.ok(eu.some((r) => r.price_type === 'trend' && r.amount === '2.5' && r.finish === null && r.as_of === '2021-08-06'));
    assert.ok(eu.some((r) => r.finish === 'reverse-holofoil' && r.price_type === 'avg1' && r.amount === '0.5'));
    const page = await parsePokemontcgIo(read('pokemontcg-io-api', 'pokemon-tcg-sdk-dart', 'cards.json'));
    assert.deepEqual(page.rejected, []);
    assert.equal(new Set(page.rows.map((r) => r.ref.value)).size, 250);
    assert.ok(page.rows.some((r) => r.printRun === '1st-edition'));
  });

  it('rejects cards without ids, unknown finishes and bad dates', async () => {
    const feed = JSON.stringify({
      data: [
        { name: 'no id', tcgplayer: { updatedAt: '2021/03/12', prices: { normal: { market: 1 } } } },
        { id: 'base1-4', tcgplayer: { updatedAt: '2021/03/12', prices: { sparkly: { market: 1 }, normal: { market: 2, low: 'n/a' } } } },
        { id: 'base1-5', cardmarket: { updatedAt: 'yesterday', prices: { trendPrice: 1 } } },
      ],
    });
    const { rows, rejected } = await parsePokemontcgIo(feed);
    assert.deepEqual(
      rows.map((r) => [r.ref.value, r.price_type, r.amount]),
      [['base1-4', 'market', '2']],
    );
    assert.equal(rejected.length, 4);
  });
});

describe('Scryfall cards', () => {
  it('reads usd, usd_foil, usd_etched, eur and eur_foil, never tix', async () => {
    const cards = JSON.parse(read('scryfall', 'mtg_ssm', 'cards.json')) as { id: string; prices: Record<string, string | null> }[];
    const { rows, rejected } = await parseScryfallPrices(JSON.stringify(cards), '2024-02-21');
    assert.deepEqual(rejected, []);
    const expected = cards.reduce(
      (n, c) => n + ['usd', 'usd_foil', 'usd_etched', 'eur', 'eur_foil'].filter((k) => c.prices[k] && Number(c.prices[k]) > 0).length,
      0,
    );
    assert.equal(rows.length, expected);
    const first = cards[0]!;
    assert.deepEqual(
      rows.filter((r) => r.ref.value === first.id).map((r) => [r.region, r.currency, r.finish, r.amount]),
      [
        ['us', 'USD', 'normal', '1.03'],
        ['eu', 'EUR', 'normal', '0.91'],
      ],
    );
    const single = await parseScryfallPrices(read('scryfall', 'aioscryfall', 'cards', 'single.json'), '2023-04-01');
    assert.ok(single.rows.length > 0);
    const list = await parseScryfallPrices(read('scryfall', 'aioscryfall', 'cards', 'forests-page1.json'), '2023-04-01');
    assert.deepEqual(list.rejected, []);
    assert.ok(new Set(list.rows.map((r) => r.ref.value)).size >= 5, 'a list object yields its cards');
  });
});

describe('PriceCharting CSV', () => {
  it('maps grade columns to the spec semantics, pc17/pc18 untouched', async () => {
    const csv = fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'pricecharting-pokemon-base.csv'), 'utf8');
    const { rows, rejected } = await parsePriceChartingCsv(csv, '2026-11-21');
    const charizard = rows.filter((r) => r.ref.value === '6910').map((r) => [r.grading_company, r.grade, r.price_type, r.amount]);
    assert.deepEqual(charizard, [
      ['raw', '', 'raw_us', '365.00'],
      ['other', '7', '', '612.50'],
      ['other', '8', '', '850.00'],
      ['other', '9', '', '1450.00'],
      ['other', '9.5', '', '2400.00'],
      ['psa', '10', '', '12500.00'],
      ['bgs', '10', '', '21000.00'],
      ['other', 'pc17', '', '3100.00'],
      ['other', 'pc18', '', '4050.00'],
    ]);
    const firstEdition = rows.filter((r) => r.ref.value === '6911');
    assert.ok(firstEdition.length > 0 && firstEdition.every((r) => r.printRun === '1st-edition'));
    assert.deepEqual(
      rows.filter((r) => r.ref.value === '6914').map((r) => [r.printRun, r.amount]),
      [['shadowless', '1150.00']],
    );
    assert.deepEqual(
      rows.filter((r) => r.ref.value === '6910').map((r) => r.printRun),
      charizard.map(() => null),
    );
    assert.deepEqual(
      rejected.map((r) => r.ref),
      ['"oops"', '6913', '6913'],
    );
    await assert.rejects(parsePriceChartingCsv('id,name\n1,x\n', '2026-11-21'), FeedFormatError);
  });
});

describe('TCGplayer pricing', () => {
  it('reads every sub-type as finish and print run, quarantining bad results', async () => {
    const { parseTcgplayerPricing } = await import('../ingest/sources/tcgplayerPricing.js');
    const json = fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'tcgplayer-pricing.json'), 'utf8');
    const { rows, rejected } = await parseTcgplayerPricing(json, '2026-11-21');
    const first = rows.filter((r) => r.ref.value === '42382' && r.printRun === '1st-edition');
    assert.deepEqual(
      first.map((r) => [r.finish, r.price_type, r.amount]),
      [
        ['holofoil', 'low', '1899'],
        ['holofoil', 'mid', '2400'],
        ['holofoil', 'high', '5000'],
        ['holofoil', 'market', '2250.15'],
        ['holofoil', 'direct_low', '2399.99'],
      ],
    );
    assert.ok(rows.some((r) => r.ref.value === '270895' && r.finish === 'rainbow-foil' && r.price_type === 'market'));
    assert.ok(rows.every((r) => r.region === 'us' && r.currency === 'USD' && r.as_of === '2026-11-21'));
    assert.deepEqual(
      rejected.map((r) => r.ref),
      ['"x"', '5', '6'],
    );
    assert.ok(
      rows.some((r) => r.ref.value === '6' && r.price_type === 'low'),
      'the good field of a partly bad result is kept',
    );
    await assert.rejects(parseTcgplayerPricing('{"success":false,"errors":["bad key"]}', '2026-11-21'), FeedFormatError);
  });
});

describe('eBay sold items (Marketplace Insights)', () => {
  it('reads every sale, grades from titles, one observation per legacy item id', async () => {
    const { parseItemSales, gradeFromTitle } = await import('../ingest/sources/auctionSold.js');
    const json = fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'ebay-item-sales.json'), 'utf8');
    const { rows, rejected, total, next } = await parseItemSales(json, { kind: 'price_guide_id', value: '6910' });
    assert.deepEqual([total, next], [6, null]);
    assert.deepEqual(
      rows.map((r) => [r.observation_id, r.grading_company, r.grade, r.price_type, r.amount, r.as_of]),
      [
        ['386512345001', 'psa', '10', '', '12850.0', '2026-11-20'],
        ['386512345002', 'bgs', '9.5', '', '4100.00', '2026-11-19'],
        ['386512345003', 'raw', '', 'last_sold', '389.99', '2026-11-20'],
      ],
    );
    assert.deepEqual(
      rejected.map((r) => r.ref),
      ['386512345005', '386512345006', 'null'],
    );
    assert.deepEqual(gradeFromTitle('Pikachu cgc gem mint 10'), { grading_company: 'cgc', grade: '10' });
    assert.deepEqual(gradeFromTitle('Pikachu 25/102 holo'), { grading_company: 'raw', grade: '' });
    await assert.rejects(
      parseItemSales('{"errors":[{"errorId":12001,"message":"Insufficient permissions"}]}', { kind: 'price_guide_id', value: '1' }),
      FeedFormatError,
    );
  });

  it('dates a sale only by a calendar day within the allowed days, refusing the sale alone otherwise (fast-check)', async () => {
    const { parseItemSales } = await import('../ingest/sources/auctionSold.js');
    const days = upstreamDayRange('2030-01-03');
    assert.deepEqual(days, { first: '1990-01-01', last: '2030-01-04' });
    const pad = (n: number, w: number) => String(n).padStart(w, '0');
    // Instants with any year, month 0-19, day 0-39 and an offset, beside any text at all.
    const stamp = fc.oneof(
      fc
        .tuple(
          fc.oneof(fc.integer({ min: 1985, max: 2035 }), fc.integer({ min: 0, max: 9999 })),
          fc.integer({ min: 0, max: 19 }),
          fc.integer({ min: 0, max: 39 }),
          fc.integer({ min: 0, max: 23 }),
          fc.constantFrom('Z', '.000Z', '+02:00', '-11:30', '+0200', ''),
        )
        .map(([y, m, d, h, zone]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}${zone === '' ? '' : `T${pad(h, 2)}:30:00${zone}`}`),
      fc.string(),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(stamp, { minLength: 1, maxLength: 8 }), async (stamps) => {
        const itemSales = stamps.map((lastSoldDate, i) => ({
          itemId: `v1|${1000 + i}|0`,
          title: 'Pikachu',
          lastSoldDate,
          lastSoldPrice: { value: '5.00', currency: 'USD' },
        }));
        const page = await parseItemSales(
          JSON.stringify({ total: stamps.length, itemSales }),
          { kind: 'pokemontcg_id', value: 'base1-58' },
          undefined,
          days,
        );
        assert.equal(page.rows.length + page.rejected.length, stamps.length, 'each sale loaded or refused');
        for (const row of page.rows) {
          const sold = stamps[Number(row.observation_id) - 1000]!;
          // A calendar day within the days, and the sale's own day in UTC (the engine's reading of a valid instant).
          assert.ok(row.as_of >= days.first && row.as_of <= days.last, row.as_of);
          assert.equal(new Date(`${row.as_of}T00:00:00Z`).toISOString().slice(0, 10), row.as_of);
          assert.equal(new Date(sold).toISOString().slice(0, 10), row.as_of, sold);
          // …of an instant written on a calendar day (2026-02-30 is not rolled over to March 2).
          assert.ok(z.iso.date().safeParse(sold.slice(0, 10)).success, sold);
        }
        for (const r of page.rejected)
          assert.match(r.reason, /^sale without a valid lastSoldDate \(an instant on a day from 1990-01-01 to 2030-01-04\): /);
      }),
      { numRuns: 300 },
    );
  });
});
