// The demo market's one price model: the history backfill (ClickHouse) and the live feed server
// (TypeScript) agree to the cent, write the same series under the same source names, and a live
// day continues the backfill without a jump.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startFeedServer, type FeedServer } from '../ingest/demoMarket/feedServer.js';
import { auctionOn, dayNumber, isPlantedOutlier, quoteCents, type SeriesKey } from '../ingest/demoMarket/priceModel.js';
import { CROSS_SOURCE_REASON } from '../ingest/normalise/crossSource.js';
import { demoSeries } from '../ingest/demo/priceHistory.js';
import type { Planned } from '../ingest/demoMarket/quotePlan.js';
import { ingestFeed } from '../ingest/pipeline.js';
import { priceGuideCsvPath } from '../ingest/upstreams/pricecharting.js';
import { createUpstreams, feedPairs } from '../ingest/upstreams/registry.js';
import { chRows, daysAgo, todayUtc } from './support/clickhouseRows.js';
import { call } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
let feeds: FeedServer;
let series: Planned[];

const keyOf = (r: Omit<SeriesKey, 'region'> & { variant_id: number | string }) =>
  `${r.variant_id}|${r.source}|${r.price_type}|${r.grading_company}|${r.grade}|${r.currency}`;
const plannedKey = (p: Planned) => keyOf({ variant_id: p.variant.variant_id, ...p.key });
const dayAfter = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const admin = () => ({ Authorization: `Bearer ${fs.readFileSync(path.join(stack.config.dataDir, 'admin-token'), 'utf8').trim()}` });

/** Ingests one day of the given feeds from the mirror through the production connectors; the feeds' summaries. */
async function ingestDay(day: string, pairs = feedPairs(), deps = stack.ingestDeps()) {
  await feeds.setDay(day);
  const summaries = [];
  for (const { source, game } of pairs) summaries.push(await ingestFeed(deps, { source, game, asOf: day }));
  return summaries;
}

/** Whether a variant|source flag is one of the outliers the demo model plants on that day. */
const plantedByModel = (pair: string, day: string) => {
  const [variant, source] = pair.split('|');
  return series.some(
    (p) => p.variant.variant_id === Number(variant) && p.key.source === source && isPlantedOutlier(p.quote, dayNumber(day)),
  );
};

/** The cross-source flags of the batches, as variant|source pairs. */
async function crossSourceFlagged(batchIds: string[]): Promise<string[]> {
  const rows = await chRows<{ ref: string }>(
    stack.stores.ch.client,
    'SELECT ref FROM holo.ingest_rejects FINAL WHERE batch_id IN {b:Array(String)} AND reason = {r:String}',
    { b: batchIds, r: CROSS_SOURCE_REASON },
  );
  return rows.map((r) => {
    const [variant, source] = r.ref.split(' ');
    return `${variant!.replace('variant:', '')}|${source}`;
  });
}

type PointRow = Omit<SeriesKey, 'region'> & { variant_id: string; amount: string; day: string };
const pointsOn = (day: string, from: 'backfill' | 'live') =>
  chRows<PointRow>(
    stack.stores.ch.client,
    `SELECT toString(variant_id) AS variant_id, source, price_type, grading_company, grade, currency, toString(amount) AS amount, toString(as_of) AS day
     FROM holo.price_points FINAL WHERE as_of = {d:Date} AND startsWith(batch_id, 'demo-') = {backfill:Bool}`,
    { d: day, backfill: from === 'backfill' },
  );

before(async () => {
  // The small demo: its history is generated at start-up, ending today.
  stack = await startStack({ demo: 'small' });
  feeds = await startFeedServer(stack.stores.pg.url, stack.config.feedsPort, { throttleEvery: 0 });
  series = await demoSeries(stack.stores.pg.pool);
});
after(async () => {
  await feeds?.close();
  await stack?.close();
});

describe('demo price model', () => {
  it('writes the history under the feeds own source names, for every game', async () => {
    const sources = await chRows<{ source: string; game: string }>(
      stack.stores.ch.client,
      `SELECT DISTINCT source, game FROM holo.price_points WHERE batch_id LIKE 'demo-%' ORDER BY game, source`,
    );
    const names = new Set(sources.map((s) => s.source));
    for (const old of ['us_market', 'eu_market', 'graded_guide', 'jp_market']) assert.ok(!names.has(old), `${old} is not a feed`);
    assert.deepEqual([...names].sort(), ['auction_sold', 'cardmarket', 'pricecharting', 'scryfall', 'tcgplayer']);
    assert.deepEqual([...new Set(sources.map((s) => s.game))].sort(), ['flesh-and-blood', 'lorcana', 'mtg', 'pokemon']);
  });

  it('the ClickHouse generator and the TypeScript model agree to the cent', async () => {
    const days = [todayUtc(), daysAgo(1), daysAgo(17), daysAgo(89)];
    let compared = 0;
    for (const day of days) {
      const stored = new Map((await pointsOn(day, 'backfill')).map((r) => [keyOf(r), Math.round(Number(r.amount) * 100)]));
      for (const p of series) {
        const expected = p.quote.auction && auctionOn(p.quote, dayNumber(day)) !== 'sold' ? undefined : quoteCents(p.quote, dayNumber(day));
        assert.equal(stored.get(plannedKey(p)), expected, `${plannedKey(p)} on ${day}`);
        compared += expected === undefined ? 0 : 1;
      }
      assert.equal(stored.size, series.filter((p) => !p.quote.auction || auctionOn(p.quote, dayNumber(day)) === 'sold').length);
    }
    assert.ok(compared > 10_000, `compared ${compared} prices`);
  });

  it('a live day continues the backfill: same series, the model price, no level jump', async () => {
    const yesterday = daysAgo(1);
    const today = todayUtc();
    // Today's backfilled points are replaced by what the feeds say today, through the ingestion path.
    const summaries = await ingestDay(today);
    for (const s of summaries) assert.ok(s.loaded > 0, `${s.source}/${s.game} loaded`);
    // The sources agree: the only cross-source flags of a day are the model's planted outliers.
    for (const pair of await crossSourceFlagged(summaries.map((s) => s.batchId)))
      assert.ok(plantedByModel(pair, today), `${pair} flagged although the sources agree`);
    const live = await pointsOn(today, 'live');
    const backfill = new Map((await pointsOn(yesterday, 'backfill')).map((r) => [keyOf(r), Number(r.amount)]));
    const planned = new Map(series.map((p) => [plannedKey(p), p]));
    const daily = live.filter((r) => r.source !== 'auction_sold');
    assert.ok(daily.length > 5000, `${daily.length} live prices`);
    const ratios: number[] = [];
    for (const r of live) {
      const p = planned.get(keyOf(r));
      assert.ok(p, `live series ${keyOf(r)} has a backfilled past`);
      assert.equal(Math.round(Number(r.amount) * 100), quoteCents(p.quote, dayNumber(today)), `${keyOf(r)} is the model's price`);
      if (r.source === 'auction_sold') continue;
      const before = backfill.get(keyOf(r));
      assert.ok(before !== undefined, `${keyOf(r)} was backfilled yesterday`);
      ratios.push(Math.abs(Math.log(Number(r.amount) / before)));
    }
    // Every daily series the backfill wrote yesterday goes on today.
    const liveKeys = new Set(daily.map(keyOf));
    for (const key of backfill.keys()) if (!key.includes('|auction_sold|')) assert.ok(liveKeys.has(key), `${key} goes on live`);
    ratios.sort((a, b) => a - b);
    const median = ratios[Math.floor(ratios.length / 2)]!;
    const p99 = ratios[Math.floor(ratios.length * 0.99)]!;
    assert.ok(median < 0.04, `median day-to-day move ${median}`);
    assert.ok(p99 < 0.2, `p99 day-to-day move ${p99}`);
  });

  it('flags a planted 100x price guide row against the other sources, keeps it, and keeps it out of latest prices and aggregates', async () => {
    const day = todayUtc();
    await feeds.setDay(day);
    const guidePath = priceGuideCsvPath(stack.config.upstreams.pricecharting.credentials.HOLO_PRICECHARTING_TOKEN!, 'pokemon-cards');
    const guide = await (await fetch(`${feeds.url}${guidePath}`)).text();
    const lines = guide.trimEnd().split('\n');
    const header = lines[0]!.split(',');
    // The newest card's plain row (no quoted commas, not a 1st Edition that only one marketplace
    // prices): its loose price, a hundred times over.
    const index = lines.findLastIndex((l, i) => i > 0 && !l.includes('"') && !l.includes('[1st Edition]'));
    const cells = lines[index]!.split(',');
    const loose = header.indexOf('loose-price');
    const honest = Number(cells[loose]!.replace(/[$,]/g, ''));
    cells[loose] = `$${(honest * 100).toFixed(2)}`;
    lines[index] = cells.join(',');
    const planted = lines.join('\n') + '\n';
    // The guide as PriceCharting would serve it, at its own path, with one row corrupted.
    const server = http.createServer((req, res) =>
      req.url === guidePath
        ? res.writeHead(200, { 'Content-Type': 'text/csv' }).end(planted)
        : res.writeHead(404).end('not the price guide'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const [summary] = await ingestDay(day, [{ source: 'pricecharting', game: 'pokemon' }], {
        ...stack.ingestDeps(),
        upstreams: createUpstreams({ ...stack.config.upstreams, pricecharting: { ...stack.config.upstreams.pricecharting, url } }),
      });
      // The planted row is the one flag beside the outliers the model itself plants on some days.
      const everyFlag = await crossSourceFlagged([summary!.batchId]);
      const flags = everyFlag.filter((pair) => !plantedByModel(pair, day));
      assert.equal(flags.length, 1, JSON.stringify(everyFlag));
      const variant = Number(flags[0]!.split('|')[0]);
      assert.equal(flags[0], `${variant}|pricecharting`);
      // Every row of that product is flagged (its graded prices come from the same wrong mapping), and kept.
      const rows = await chRows<{ price_type: string; amount: string; is_outlier: boolean }>(
        stack.stores.ch.client,
        `SELECT price_type, toString(amount) AS amount, is_outlier FROM holo.price_points FINAL
         WHERE variant_id = {v:UInt32} AND source = 'pricecharting' AND as_of = {d:Date}`,
        { v: variant, d: day },
      );
      const [flaggedRows] = await chRows<{ n: string }>(
        stack.stores.ch.client,
        `SELECT count() AS n FROM holo.price_points FINAL
         WHERE variant_id IN {v:Array(UInt32)} AND source = 'pricecharting' AND as_of = {d:Date} AND is_outlier`,
        { v: everyFlag.map((pair) => Number(pair.split('|')[0])), d: day },
      );
      assert.equal(summary!.crossSourceFlagged, Number(flaggedRows!.n), 'the summary counts every flagged row');
      assert.ok(rows.length >= 1 && rows.every((r) => r.is_outlier));
      assert.equal(Number(rows.find((r) => r.price_type === 'raw_us')!.amount), honest * 100);
      // Not the latest price, not in the daily aggregate.
      const latest = await stack.stores.pg.pool.query(
        `SELECT amount::float8 AS amount FROM variant_prices_latest WHERE variant_id = $1 AND source = 'pricecharting' AND price_type = 'raw_us'`,
        [variant],
      );
      assert.ok(latest.rows[0].amount < honest * 2, `latest ${latest.rows[0].amount}`);
      const [daily] = await chRows<{ top: number }>(
        stack.stores.ch.client,
        `SELECT max(toFloat64(amount)) AS top FROM holo.market_daily WHERE variant_id = {v:UInt32} AND source = 'pricecharting' AND day = {d:Date}`,
        { v: variant, d: day },
      );
      assert.ok(daily!.top < honest * 2, `market_daily ${daily!.top}`);
      // Listed with the refused rows, and counted per feed and day for operators.
      const rejects = await call(stack, 'GET', `/api/admin/ingest/rejects?batch_id=${encodeURIComponent(summary!.batchId)}`, {
        headers: admin(),
      });
      assert.deepEqual(
        rejects.body.items.map((r: { reason: string }) => r.reason),
        everyFlag.map(() => CROSS_SOURCE_REASON),
      );
      const counts = await call(stack, 'GET', '/api/admin/ingest/cross-source-flags?days=7&source=pricecharting', { headers: admin() });
      assert.equal(counts.status, 200);
      assert.equal(counts.body.rule.factor, 3);
      assert.ok(
        counts.body.flags.some(
          (f: { day: string; feed: string; source: string; flagged: number }) =>
            f.day === day && f.feed === 'pricecharting' && f.source === 'pricecharting' && f.flagged >= 1,
        ),
      );
      assert.ok(counts.body.flags.every((f: { source: string }) => f.source === 'pricecharting'));
      assert.equal((await call(stack, 'GET', '/api/admin/ingest/cross-source-flags?days=0', { headers: admin() })).status, 422);
      assert.equal((await call(stack, 'GET', '/api/admin/ingest/cross-source-flags')).status, 401);
    } finally {
      server.close();
    }
  });

  it('keeps movers and the overview on the newest complete day through a week of midnights, with one source late each day', async () => {
    const usMarket = series.filter((p) => p.key.region === 'us' && p.key.price_type === 'market' && p.key.grading_company === 'raw');
    // What the market endpoints must say, from the price model alone: per card the US market
    // series with the most points in the window (then the highest price now), newest complete day
    // against 7 days before; planted outliers are not prices.
    const expected = (newest: string) => {
      const n = dayNumber(newest);
      const value = (p: Planned, d: number) => (isPlantedOutlier(p.quote, d) ? null : quoteCents(p.quote, d) / 100);
      let now = 0;
      let then = 0;
      const perCard = new Map<number, { n: number; current: number; past: number }>();
      for (const p of usMarket) {
        const current = value(p, n);
        const past = value(p, n - 7);
        if (current !== null && past !== null) {
          now += current;
          then += past;
        }
        if (current === null || past === null || current < 1) continue;
        let points = 0;
        for (let d = n - 7; d <= n; d++) points += value(p, d) === null ? 0 : 1;
        const best = perCard.get(p.variant.card_id);
        if (!best || points > best.n || (points === best.n && current > best.current))
          perCard.set(p.variant.card_id, { n: points, current, past });
      }
      const gainers = [...perCard.entries()]
        .map(([card, s]) => ({ card, pct: ((s.current - s.past) / s.past) * 100 }))
        .sort((a, b) => b.pct - a.pct)
        .slice(0, 5);
      return { now, then, gainers };
    };
    const check = async (newest: string) => {
      const want = expected(newest);
      const overview = (await stack.json('/api/market/overview?period=7d')).body;
      assert.equal(overview.as_of, newest);
      assert.ok(Math.abs(overview.market.value_now - want.now) < 0.02, `value_now ${overview.market.value_now} vs ${want.now}`);
      assert.ok(Math.abs(overview.market.value_then - want.then) < 0.02, `value_then ${overview.market.value_then} vs ${want.then}`);
      const movers = (await stack.json('/api/market/movers?period=7d&limit=5')).body;
      assert.equal(movers.as_of, newest);
      assert.deepEqual(
        movers.gainers.map((g: { card_id: number }) => g.card_id),
        want.gainers.map((g) => g.card),
      );
      movers.gainers.forEach((g: { change_pct: number }, i: number) => assert.ok(Math.abs(g.change_pct - want.gainers[i]!.pct) < 0.01));
    };
    // A week of midnights: each day every feed but Scryfall lands first, and until Scryfall does,
    // the market answers for the day before.
    let complete = todayUtc();
    for (let i = 1; i <= 7; i++) {
      const day = dayAfter(todayUtc(), i);
      await ingestDay(
        day,
        feedPairs().filter((f) => f.source !== 'scryfall'),
      );
      await check(complete);
      await ingestDay(day, [{ source: 'scryfall', game: 'mtg' }]);
      await check(day);
      complete = day;
    }
  });
});
