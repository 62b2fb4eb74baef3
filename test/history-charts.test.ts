// Embeddable history charts: the SVG draws one line per source of the JSON history with its
// legend, axes and size; the PNG is the same chart as pixels; both follow new prices (the prices
// epoch) and escape what a catalogue name holds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { createTestCards } from './support/catalogue.js';
import { loadPricePoints } from '../ingest/load/pricePoints.js';
import { daysAgo, todayUtc } from './support/clickhouseRows.js';
import { niceTicks } from '../api/v2/historyChart.js';
import { startStack, type Stack } from './support/stack.js';

type Json = any;
let stack: Stack;
let demoCard: number;

before(async () => {
  stack = await startStack();
  const { rows } = await stack.stores.pg.pool.query(
    `SELECT c.id FROM cards c JOIN games g ON g.id = c.game_id JOIN card_best_prices b ON b.card_id = c.id
     WHERE g.slug = 'pokemon' ORDER BY b.best_price DESC NULLS LAST LIMIT 1`,
  );
  demoCard = rows[0].id;
});
after(async () => {
  await stack?.close();
});

const svgOf = async (p: string) => {
  const res = await stack.get(p);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};

describe('GET /api/v2/cards/{card_id}/history.svg and .png', () => {
  it('draws a line and a legend entry per source of the JSON history, at the size asked', async () => {
    const history = (await stack.json(`/api/v2/cards/${demoCard}/history?region=us&days=365`)).body;
    const sources: string[] = [...new Set(history.points.map((p: Json) => p.source as string))] as string[];
    assert.ok(sources.length >= 2, 'the demo card has several US sources');
    const { status, type, text } = await svgOf(`/api/v2/cards/${demoCard}/history.svg?region=us&days=365&width=900&height=420`);
    assert.equal(status, 200);
    assert.equal(type, 'image/svg+xml');
    assert.match(text, /^<svg [^>]*width="900" height="420"/);
    assert.equal(text.match(/<path /g)?.length, sources.length);
    for (const source of sources) assert.match(text, new RegExp(`>${source} \\(`), source);
    assert.match(text, />USD</);
    // The value axis covers every point drawn (each source's series the legend names): its lowest
    // tick is at or below the cheapest, its highest at or above the dearest.
    const drawn = new Set([...text.matchAll(/>([a-z_]+) \(([a-z0-9 ]+)\)</g)].map((m) => `${m[1]}|${m[2]!.replaceAll(' ', '_')}`));
    assert.equal(drawn.size, sources.length);
    const amounts = history.points.filter((p: Json) => drawn.has(`${p.source}|${p.price_type}`)).map((p: Json) => p.amount as number);
    assert.ok(amounts.length > 100);
    const ticks = [...text.matchAll(/text-anchor="end">([\d,.]+)</g)].map((m) => Number(m[1]!.replaceAll(',', '')));
    assert.ok(ticks.length >= 3);
    assert.ok(Math.min(...ticks) <= Math.min(...amounts) && Math.max(...ticks) >= Math.max(...amounts) * 0.999);
  });

  it('renders the same chart as a PNG of that size with something drawn on it', async () => {
    const res = await stack.get(`/api/v2/cards/${demoCard}/history.png?region=eu&days=90&width=640&height=320&theme=dark`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    const png = Buffer.from(await res.arrayBuffer());
    const meta = await sharp(png).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', 640, 320]);
    const stats = await sharp(png).stats();
    assert.ok(stats.channels[0]!.stdev > 5, 'not a blank image');
  });

  it("answers a chart asked again from the route's cache: the same bytes and type", async () => {
    for (const [ext, type] of [
      ['svg', 'image/svg+xml'],
      ['png', 'image/png'],
    ] as const) {
      const url = `/api/v2/cards/${demoCard}/history.${ext}?region=us&days=30&width=320&height=200`;
      const [first, second] = [await stack.get(url), await stack.get(url)];
      assert.deepEqual([first.status, second.status], [200, 200]);
      assert.deepEqual([first.headers.get('content-type'), second.headers.get('content-type')], [type, type]);
      assert.equal(second.headers.get('cache-control'), 'public, max-age=120');
      const [a, b] = [Buffer.from(await first.arrayBuffer()), Buffer.from(await second.arrayBuffer())];
      assert.ok(a.equals(b), ext);
      if (ext === 'png') assert.equal((await sharp(b).metadata()).format, 'png');
      else assert.match(b.toString(), /^<svg /);
    }
  });

  it('follows new prices and escapes what a card name holds', async () => {
    const cards = await createTestCards(stack.stores.pg.pool, 'chart-test', ['<b>&"x"</b>'], ['normal']);
    const card = cards['<b>&"x"</b>']!;
    const row = (amount: string, as_of: string) => ({
      card_id: card.card,
      variant_id: card.variants.normal!,
      game: 'chart-test',
      region: 'us' as const,
      source: 'tcgplayer',
      price_type: 'market',
      grading_company: 'raw',
      grade: '',
      currency: 'USD',
      amount,
      as_of,
      is_outlier: false,
    });
    await loadPricePoints(stack.loadTargets(), [row('10.00', daysAgo(3))], { id: 'chart-1', ingestedAt: new Date() });
    const before = await svgOf(`/api/v2/cards/${card.card}/history.svg?region=us&days=30`);
    assert.equal(before.status, 200);
    assert.ok(before.text.includes('chart-test &lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;'));
    assert.ok(!before.text.includes('<b>'));
    assert.equal(before.text.match(/<circle /g)?.length, 1, 'one point: a dot');
    await loadPricePoints(stack.loadTargets(), [row('30.00', todayUtc())], { id: 'chart-2', ingestedAt: new Date() });
    const afterLoad = await svgOf(`/api/v2/cards/${card.card}/history.svg?region=us&days=30`);
    assert.notEqual(afterLoad.text, before.text);
    assert.equal(afterLoad.text.match(/<circle /g), null, 'two points: a line');
    assert.match(afterLoad.text, />30\.00</);
    // No prices in the range: a chart that says so, not an error.
    const empty = await svgOf(`/api/v2/cards/${card.card}/history.svg?region=jp&days=30`);
    assert.equal(empty.status, 200);
    assert.match(empty.text, /No prices in this range/);
  });

  it('answers 404 for an unknown card or variant and 422 for a size out of bounds', async () => {
    assert.equal((await svgOf('/api/v2/cards/999999999/history.svg')).status, 404);
    assert.equal((await svgOf(`/api/v2/cards/${demoCard}/history.png?variant_id=999999999`)).status, 404);
    for (const q of ['width=10', 'height=5000', 'theme=pink', 'days=0']) {
      const res = await stack.get(`/api/v2/cards/${demoCard}/history.svg?${q}`);
      assert.equal(res.status, 422, q);
    }
  });

  it('picks round value ticks that cover the range', () => {
    assert.deepEqual(niceTicks(3.2, 9.7), [2, 4, 6, 8, 10]);
    assert.deepEqual(niceTicks(10, 10), [9, 9.5, 10, 10.5, 11]);
    assert.deepEqual(niceTicks(0.013, 0.046), [0.01, 0.02, 0.03, 0.04, 0.05]);
  });
});
