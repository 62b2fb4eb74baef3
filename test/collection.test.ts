// A collector's cards over HTTP on the small demo (real prices and a year of history): adding
// with the spec's defaults and merging the same card, values from the latest prices by condition,
// paging, ownership, and a summary whose 24 h and 7 d changes agree with ClickHouse's history.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { parse } from 'csv-parse/sync';
import { repoRoot } from '../sql/runtime/paths.js';
import { accountWithKey, type KeyedAccount } from './support/accounts.js';
import { createTestCards } from './support/catalogue.js';
import { callerOf } from './support/http.js';
import { COLLECTION_LIMITS } from '../schemas/collection.js';
import { startStack, type Stack } from './support/stack.js';
import { loadPricePoints } from '../ingest/load/pricePoints.js';
import { announcePricesLanded } from '../sql/stores/priceChannels.js';
import { until } from './support/until.js';

let stack: Stack;
let owner: KeyedAccount;
let other: KeyedAccount;
type Json = Record<string, any>;
/** Cards of the demo with an ungraded US market price on their primary variant, dearest first. */
let priced: { card_id: number; variant_id: number; price: number; slug: string }[];

const call = callerOf(() => stack);

before(async () => {
  stack = await startStack({ demo: 'small' });
  owner = await accountWithKey(stack, 'collector', 'enterprise');
  other = await accountWithKey(stack, 'othercollector', 'enterprise');
  const { rows } = await stack.stores.pg.pool.query(
    `SELECT b.card_id, b.variant_id, b.best_price::float8 AS price, g.slug
     FROM card_best_prices b JOIN cards c ON c.id = b.card_id JOIN games g ON g.id = c.game_id
     ORDER BY b.best_price DESC, b.card_id LIMIT 20`,
  );
  priced = rows;
  assert.ok(priced.length >= 5, 'the small demo has priced cards');
});
after(async () => {
  await stack?.close();
});

const cents = (n: number) => Math.round(n * 100) / 100;

/**
 * Variants' daily lows, read here straight from ClickHouse: the day they end on, and each
 * variant's lowest US market price on its newest day at or before a day (null before its first).
 */
async function dailyLows(variantIds: number[]) {
  const history = await stack.stores.ch.client.query({
    query: `SELECT variant_id, toString(day) AS day, toFloat64(min(amount)) AS low FROM holo.market_daily
            WHERE region = 'us' AND price_type = 'market' AND currency = 'USD' AND variant_id IN (${variantIds.join(', ')})
            GROUP BY variant_id, day ORDER BY day`,
    format: 'JSONEachRow',
  });
  const points = await history.json<{ variant_id: number; day: string; low: number }>();
  return {
    newest: points.at(-1)!.day,
    priceOn: (variant: number, day: string) => points.filter((p) => p.variant_id === variant && p.day <= day).at(-1)?.low ?? null,
  };
}

describe('adding to a collection', () => {
  it('takes the spec’s defaults, values the entry from the latest price, and merges the same card', async () => {
    const card = priced[0]!;
    assert.equal((await call(null, 'POST', '/collection/add', { card_id: card.card_id })).status, 401);
    const added = await call(owner, 'POST', '/collection/add', { card_id: card.card_id });
    assert.equal(added.status, 201);
    assert.deepEqual(
      [added.body.quantity, added.body.condition, added.body.graded, added.body.grading_company, added.body.price_paid],
      [1, 'NM', false, null, null],
    );
    assert.equal(added.body.unit_value, cents(card.price), 'near mint is the primary variant’s reference price');
    assert.equal(added.body.tcg_slug, card.slug);

    const more = await call(owner, 'POST', '/collection/add', { card_id: card.card_id, quantity: 2, price_paid: 12.5 });
    assert.equal(more.body.id, added.body.id, 'the same card, variant, condition and grading is one entry');
    assert.deepEqual([more.body.quantity, more.body.price_paid, more.body.current_value], [3, 12.5, cents(cents(card.price) * 3)]);

    const played = await call(owner, 'POST', '/collection/add', { card_id: card.card_id, condition: 'LP' });
    assert.notEqual(played.body.id, added.body.id);
    assert.equal(played.body.unit_value, cents(card.price * 0.85), 'lightly played: 85 % of near mint');
  });

  it('refuses unknown cards and variants, grading on an ungraded card, and values out of bounds', async () => {
    const card = priced[1]!;
    assert.equal((await call(owner, 'POST', '/collection/add', { card_id: 99_999_999 })).status, 404);
    const variant = await call(owner, 'POST', '/collection/add', { card_id: card.card_id, variant: 'gold-plated' });
    assert.equal(variant.status, 400);
    assert.match(variant.body.detail, /has no variant "gold-plated"; it has: /);
    // The rule is the document's too (if/then/else on graded), so it is a 422 like the schema's own.
    const grading = await call(owner, 'POST', '/collection/add', { card_id: card.card_id, grading_company: 'PSA', grade: 10 });
    assert.equal(grading.status, 422);
    assert.deepEqual(grading.body.detail[0].loc, ['body', 'graded']);
    for (const bad of [{ quantity: 0 }, { condition: 'MINT' }, { grading_company: 'XYZ', graded: true }, { grade: 10.3, graded: true }]) {
      const res = await call(owner, 'POST', '/collection/add', { card_id: card.card_id, ...bad });
      assert.equal(res.status, 422, JSON.stringify(bad));
    }
    const graded = await call(owner, 'POST', '/collection/add', {
      card_id: card.card_id,
      graded: true,
      grading_company: 'PSA',
      grade: 9.5,
    });
    assert.deepEqual([graded.status, graded.body.graded, graded.body.grading_company, graded.body.grade], [201, true, 'PSA', 9.5]);
  });
});

describe('the cap of entries', () => {
  it('holds when adds race at it: exactly one gets the last place', async () => {
    const racer = await accountWithKey(stack, 'collectionracer', 'enterprise');
    // One short of the cap, from every variant in every condition and grade of the demo.
    await stack.stores.pg.pool.query(
      `INSERT INTO collection_entries (user_id, card_id, variant_id, quantity, condition, graded, grading_company, grade)
       SELECT $1, p.card_id, v.id, 1, c.condition, g.grade IS NOT NULL, CASE WHEN g.grade IS NULL THEN NULL ELSE 'PSA' END, g.grade
       FROM printings p JOIN variants v ON v.printing_id = p.id
       CROSS JOIN (VALUES ('NM'), ('LP'), ('MP'), ('HP'), ('DMG')) AS c (condition)
       CROSS JOIN (SELECT NULL::numeric AS grade UNION ALL SELECT generate_series(1, 10)) AS g
       ORDER BY v.id, c.condition, g.grade NULLS FIRST
       LIMIT $2::int - 1`,
      [racer.user.id, COLLECTION_LIMITS.maxEntries],
    );
    const fresh = (
      await stack.stores.pg.pool.query(
        `SELECT p.card_id FROM printings p WHERE p.card_id NOT IN (SELECT card_id FROM collection_entries WHERE user_id = $1) LIMIT 6`,
        [racer.user.id],
      )
    ).rows;
    assert.equal(fresh.length, 6);
    const results = await Promise.all(fresh.map((r) => call(racer, 'POST', '/collection/add', { card_id: r.card_id })));
    assert.deepEqual(
      results.map((r) => r.status).sort((a, b) => a - b),
      [201, 409, 409, 409, 409, 409],
    );
    const { rows } = await stack.stores.pg.pool.query('SELECT count(*)::int AS n FROM collection_entries WHERE user_id = $1', [
      racer.user.id,
    ]);
    assert.equal(rows[0].n, COLLECTION_LIMITS.maxEntries);
  });
});

describe('reading and changing entries', () => {
  it('pages the collection with its total, filters by game, and keeps it to its owner', async () => {
    for (const card of priced.slice(2, 7)) await call(owner, 'POST', '/collection/add', { card_id: card.card_id });
    // And a card of another game, so the game filter has an entry to leave out.
    const elsewhere = (
      await stack.stores.pg.pool.query<{ id: number }>(
        `SELECT c.id FROM cards c JOIN games g ON g.id = c.game_id WHERE g.slug <> $1 ORDER BY c.id LIMIT 1`,
        [priced[0]!.slug],
      )
    ).rows[0]!;
    assert.equal((await call(owner, 'POST', '/collection/add', { card_id: elsewhere.id })).status, 201);
    const all = await call(owner, 'GET', '/collection?limit=200');
    const page = await call(owner, 'GET', '/collection?limit=2&offset=1');
    assert.equal(page.body.total, all.body.total);
    assert.deepEqual(
      page.body.items.map((e: Json) => e.id),
      all.body.items.slice(1, 3).map((e: Json) => e.id),
    );
    const past = await call(owner, 'GET', `/collection?offset=${all.body.total + 5}`);
    assert.deepEqual([past.body.items, past.body.total], [[], all.body.total]);
    const slug = priced[0]!.slug;
    const ofGame = await call(owner, 'GET', `/collection?tcg_slug=${slug}&limit=200`);
    assert.ok(ofGame.body.items.length > 0, 'entries of the game');
    assert.ok(!ofGame.body.items.some((e: Json) => e.card_id === elsewhere.id), 'not the other game’s');
    assert.ok(ofGame.body.items.every((e: Json) => e.tcg_slug === slug));
    assert.equal(ofGame.body.total, all.body.items.filter((e: Json) => e.tcg_slug === slug).length);
    assert.equal((await call(owner, 'GET', '/collection?limit=201')).status, 422);
    assert.deepEqual((await call(other, 'GET', '/collection')).body, { items: [], total: 0 });
  });

  it('changes and removes only own entries, and never into a copy of another entry', async () => {
    const { body: list } = await call(owner, 'GET', '/collection?limit=200');
    const entry = list.items.find((e: Json) => e.card_id === priced[0]!.card_id && e.condition === 'NM');
    assert.equal((await call(other, 'PATCH', `/collection/${entry!.id}`, { quantity: 1 })).status, 404);
    assert.equal((await call(other, 'DELETE', `/collection/${entry!.id}`)).status, 404);
    assert.equal((await call(owner, 'GET', '/collection?limit=200')).body.items.find((e: Json) => e.id === entry!.id!)!.quantity, 3);

    const changed = await call(owner, 'PATCH', `/collection/${entry!.id}`, { quantity: 5, price_paid: null });
    assert.deepEqual([changed.status, changed.body.quantity, changed.body.price_paid], [200, 5, null]);
    const clash = await call(owner, 'PATCH', `/collection/${entry!.id}`, { condition: 'LP' });
    assert.equal(clash.status, 409, 'an LP entry of the same card exists');
    const graded = await call(owner, 'PATCH', `/collection/${entry!.id}`, { grade: 8 });
    assert.equal(graded.status, 400, 'a grade needs graded: true');

    const gone = await call(owner, 'DELETE', `/collection/${entry!.id}`);
    assert.deepEqual([gone.status, gone.body], [200, { ok: true }]);
    assert.equal((await call(owner, 'DELETE', `/collection/${entry!.id}`)).status, 404);
  });
});

describe('the collection summary', () => {
  it('adds up the entries and takes its 24 h and 7 d changes from the price history', async () => {
    const fresh = await accountWithKey(stack, 'summarycollector', 'enterprise');
    const empty = await call(fresh, 'GET', '/collection/summary');
    assert.deepEqual(
      [empty.body.total_value, empty.body.card_count, empty.body.change_24h, empty.body.top_card, empty.body.by_tcg],
      [0, 0, 0, null, {}],
    );
    const [a, b] = [priced[0]!, priced[3]!];
    await call(fresh, 'POST', '/collection/add', { card_id: a.card_id, quantity: 2 });
    await call(fresh, 'POST', '/collection/add', { card_id: b.card_id, condition: 'MP' });
    const { body: summary } = await call(fresh, 'GET', '/collection/summary');
    const { body: list } = await call(fresh, 'GET', '/collection');
    const total = list.items.reduce((sum: number, e: Json) => sum + e.current_value, 0);
    assert.equal(summary.total_value, cents(total));
    assert.equal(summary.card_count, 3);
    assert.deepEqual(summary.top_card, {
      card_id: a.card_id,
      name: list.items.find((e: Json) => e.card_id === a.card_id)!.card_name,
      value: cents(cents(a.price) * 2),
    });

    // The history, read here straight from ClickHouse: each variant's lowest US market price on its
    // newest day at or before one and seven days before its own newest price day.
    const { newest, priceOn } = await dailyLows([a.variant_id, b.variant_id]);
    const shift = (days: number) => new Date(Date.parse(newest) - days * 86_400_000).toISOString().slice(0, 10);
    const expected = (days: number) =>
      cents(
        (a.price - (priceOn(a.variant_id, shift(days)) ?? a.price)) * 2 + (b.price - (priceOn(b.variant_id, shift(days)) ?? b.price)) * 0.7,
      );
    assert.ok(Math.abs(summary.change_24h - expected(1)) <= 0.02, `${summary.change_24h} vs ${expected(1)}`);
    assert.ok(Math.abs(summary.change_7d - expected(7)) <= 0.02, `${summary.change_7d} vs ${expected(7)}`);
    assert.notEqual(summary.change_7d, 0, 'the demo’s prices move within a week');
    assert.equal(summary.change_7d_pct, Math.round((summary.change_7d / (summary.total_value - summary.change_7d)) * 10_000) / 100);

    // A change of the collection shows at once, cache or not.
    await call(fresh, 'POST', '/collection/add', { card_id: b.card_id, condition: 'MP' });
    assert.equal((await call(fresh, 'GET', '/collection/summary')).body.card_count, 4);
  });
});

describe('collection analytics', () => {
  it('values today’s cards at each day’s prices, names gainers and losers, splits by set and condition', async () => {
    const fresh = await accountWithKey(stack, 'analyticscollector', 'enterprise');
    const empty = await call(fresh, 'GET', '/collection/analytics');
    assert.equal(empty.status, 200);
    assert.equal(empty.body.days, 30);
    assert.equal(empty.body.daily_value.length, 30);
    assert.ok(empty.body.daily_value.every((p: Json) => p.value === 0));
    assert.deepEqual([empty.body.gainers, empty.body.losers, empty.body.by_set, empty.body.graded], [[], [], [], { cards: 0, value: 0 }]);

    const [a, b, c] = [priced[1]!, priced[4]!, priced[6]!];
    await call(fresh, 'POST', '/collection/add', { card_id: a.card_id, quantity: 2 });
    await call(fresh, 'POST', '/collection/add', { card_id: b.card_id, condition: 'MP' });
    await call(fresh, 'POST', '/collection/add', { card_id: c.card_id, graded: true, grading_company: 'PSA', grade: 9 });
    const { body: list } = await call(fresh, 'GET', '/collection');
    const gradedValue = list.items.find((e: Json) => e.graded)!.current_value;
    const res = await call(fresh, 'GET', '/collection/analytics?days=90');
    assert.equal(res.status, 200);
    const analytics = res.body;
    assert.equal(analytics.daily_value.length, 90);
    assert.equal(analytics.daily_value[0]!.date, analytics.from);
    assert.equal(analytics.daily_value.at(-1)!.date, analytics.to);

    // Each day's value, computed here from ClickHouse's daily lows with the last price carried forward.
    const lows = await dailyLows([a.variant_id, b.variant_id]);
    assert.equal(analytics.to, lows.newest, 'the period ends on the newest price day');
    const priceOn = (variant: number, day: string) => lows.priceOn(variant, day) ?? 0;
    for (const { date, value } of analytics.daily_value)
      assert.ok(
        Math.abs(value - (priceOn(a.variant_id, date) * 2 + priceOn(b.variant_id, date) * 0.7 + gradedValue!)) <= 0.01,
        `${date}: ${value}`,
      );
    const { body: summary } = await call(fresh, 'GET', '/collection/summary');
    assert.ok(Math.abs(analytics.daily_value.at(-1)!.value - summary.total_value) <= 0.02, 'the last day is the current value');
    assert.equal(analytics.change, cents(analytics.daily_value.at(-1)!.value - analytics.daily_value[0]!.value));

    // Each ungraded card moved by its weight times its price's move over the period.
    const moves = [
      { card_id: a.card_id, change: cents(2 * (a.price - priceOn(a.variant_id, analytics.from))) },
      { card_id: b.card_id, change: cents(0.7 * (b.price - priceOn(b.variant_id, analytics.from))) },
    ];
    for (const m of moves) {
      const shown = [...analytics.gainers, ...analytics.losers].find((x: Json) => x.card_id === m.card_id);
      if (m.change === 0) assert.equal(shown, undefined);
      else {
        assert.ok(Math.abs(shown!.change - m.change) <= 0.02, `${shown!.change} vs ${m.change}`);
        assert.ok((m.change > 0 ? analytics.gainers : analytics.losers).includes(shown!));
        assert.equal(shown!.card_name, list.items.find((e: Json) => e.card_id === m.card_id)!.card_name);
      }
    }
    assert.ok(analytics.gainers.length + analytics.losers.length > 0, 'the demo’s prices move within 90 days');

    assert.deepEqual(
      analytics.by_condition.map((x: Json) => [x.condition, x.cards]),
      [
        ['NM', 2],
        ['MP', 1],
      ],
    );
    assert.deepEqual(analytics.graded, { cards: 1, value: gradedValue });
    assert.ok(Math.abs(analytics.by_set.reduce((sum: number, x: Json) => sum + x.value, 0) - summary.total_value) <= 0.02);
    for (const x of analytics.by_set) assert.ok(list.items.some((e: Json) => e.set_name === x.set_name && e.tcg_slug === x.tcg_slug));

    // New prices land for a card of the collection, on the day after: the next analytics show that day.
    const d = priced[10]!;
    await call(fresh, 'POST', '/collection/add', { card_id: d.card_id });
    const next = new Date(Date.parse(analytics.to) + 86_400_000).toISOString().slice(0, 10);
    const landed = (d.price * 2).toFixed(2);
    await loadPricePoints(
      stack.loadTargets(),
      [
        {
          card_id: d.card_id,
          variant_id: d.variant_id,
          game: d.slug,
          region: 'us',
          source: 'test_landing',
          price_type: 'market',
          grading_company: 'raw',
          grade: '',
          currency: 'USD',
          amount: landed,
          as_of: next,
          is_outlier: false,
        },
      ],
      { id: 'analytics-landing', ingestedAt: new Date() },
    );
    await announcePricesLanded(stack.stores.redis, stack.config.redisPrefix);
    // The announcement reaches this API instance through Redis: soon, not at once.
    const after = await until('the analytics to show the landed day', async () => {
      const { body } = await call(fresh, 'GET', '/collection/analytics');
      return body.to === next && body;
    });
    const { body: summaryAfter } = await call(fresh, 'GET', '/collection/summary');
    assert.ok(Math.abs(after.daily_value.at(-1)!.value - summaryAfter.total_value) <= 0.02, 'the landed price counts on its day');
    assert.ok(
      Math.abs(after.daily_value.at(-1)!.value - after.daily_value.at(-2)!.value - (Number(landed) - d.price)) <= 0.02,
      'the day before still counts the card at its old price',
    );

    // Only the periods it offers; someone else's analytics are their own (empty) collection.
    assert.equal((await call(fresh, 'GET', '/collection/analytics?days=31')).status, 422);
    assert.deepEqual((await call(other, 'GET', '/collection/analytics?days=365')).body.graded, { cards: 0, value: 0 });
    assert.equal((await call(null, 'GET', '/collection/analytics')).status, 401);
  });
});

describe('CSV export and import', () => {
  const exportOf = async (who: KeyedAccount) => {
    const res = await fetch(`${stack.url}/collection/export`, { headers: who.headers });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };
  const importInto = async (who: KeyedAccount, csv: string) => {
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'collection.csv');
    const res = await fetch(`${stack.url}/collection/import`, { method: 'POST', headers: who.headers, body: form });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('exports with the spec’s columns and real quoting, and imports back into another account whole', async () => {
    const seller = await accountWithKey(stack, 'csvexporter', 'enterprise');
    const tricky = await createTestCards(
      stack.stores.pg.pool,
      'csvgame',
      ['Jolteon, "the Shocker"', 'Pikachu\nline'],
      ['normal', 'holofoil'],
    );
    const [jolteon, pikachu] = Object.values(tricky);
    await call(seller, 'POST', '/collection/add', { card_id: jolteon!.card, quantity: 3, price_paid: 4.5, variant: 'holofoil' });
    await call(seller, 'POST', '/collection/add', { card_id: pikachu!.card, condition: 'HP' });
    for (const card of priced.slice(0, 4)) await call(seller, 'POST', '/collection/add', { card_id: card.card_id, quantity: 2 });
    await call(seller, 'POST', '/collection/add', { card_id: priced[5]!.card_id, graded: true, grading_company: 'BGS', grade: 9.5 });

    const exported = await exportOf(seller);
    assert.equal(exported.status, 200);
    assert.equal(exported.type, 'text/csv; charset=utf-8');
    assert.equal(
      exported.text.split('\n')[0],
      'card_id,name,set,tcg,quantity,condition,variant,price_paid,current_value,graded,grading_company,grade',
    );
    assert.ok(exported.text.includes('"csvgame Jolteon, ""the Shocker"""'), 'commas and quotes in a name are quoted');
    const records = parse(exported.text, { columns: true }) as Record<string, string>[];
    assert.equal(records.length, 7);
    assert.deepEqual(
      records.find((r) => r.card_id === String(jolteon!.card)),
      {
        card_id: String(jolteon!.card),
        name: 'csvgame Jolteon, "the Shocker"',
        set: 'csvgame set',
        tcg: 'csvgame',
        quantity: '3',
        condition: 'NM',
        variant: 'holofoil',
        price_paid: '4.5',
        current_value: '',
        graded: 'false',
        grading_company: '',
        grade: '',
      },
    );

    const buyer = await accountWithKey(stack, 'csvimporter', 'enterprise');
    const imported = await importInto(buyer, exported.text);
    assert.deepEqual([imported.status, imported.body], [200, { ok: true, rows: 7, entries: 7 }]);
    const strip = (items: Json[]) =>
      items
        .map(({ id: _id, added_at: _at, ...rest }) => rest)
        .sort((a, b) => a.card_id - b.card_id || a.condition.localeCompare(b.condition));
    const [mine, theirs] = [await call(seller, 'GET', '/collection?limit=200'), await call(buyer, 'GET', '/collection?limit=200')];
    assert.deepEqual(strip(theirs.body.items), strip(mine.body.items));
    assert.deepEqual(
      { ...(await call(buyer, 'GET', '/collection/summary')).body },
      { ...(await call(seller, 'GET', '/collection/summary')).body },
    );

    // The same file again changes nothing: quantities are set, never added.
    assert.equal((await importInto(buyer, exported.text)).status, 200);
    assert.deepEqual(strip((await call(buyer, 'GET', '/collection?limit=200')).body.items), strip(mine.body.items));
  });

  it('reports every bad row with its line and imports nothing', async () => {
    const who = await accountWithKey(stack, 'csvbadrows', 'enterprise');
    const [a, b] = [priced[0]!.card_id, priced[1]!.card_id];
    const lines = [
      'card_id,quantity,condition,price_paid',
      `${a},1,NM,1.00`,
      `${b},2,LP,`,
      `${a},1,MP,2`,
      `${b},1,NM,3`,
      `${a},4,HP,0.5`,
      `${a},0,NM,1`, // line 7: quantity 0
      `99999999,1,NM,1`, // line 8: no such card
      `${b},1,MINT,1`, // line 9: condition
    ];
    const refused = await importInto(who, lines.join('\n'));
    assert.equal(refused.status, 422);
    assert.deepEqual(
      refused.body.detail.map((d: Json) => d.loc[2]),
      ['line 7', 'line 8', 'line 9'],
    );
    assert.match(refused.body.detail[0].msg, /quantity "0"/);
    assert.deepEqual((await call(who, 'GET', '/collection')).body, { items: [], total: 0 });

    const noHeader = await importInto(who, `${a},1,NM,1\n`);
    assert.equal(noHeader.status, 422);
    assert.match(noHeader.body.detail[0].msg, /header row lacks/);
    const same = await importInto(who, ['card_id,quantity,condition,price_paid', `${a},1,NM,1`, `${a},2,nm,`].join('\r\n'));
    assert.deepEqual(same.body, { ok: true, rows: 2, entries: 1 }, 'rows naming one entry are summed');
    assert.equal((await call(who, 'GET', '/collection')).body.items[0]!.quantity, 3);
  });
});

describe('public profiles, privacy and avatars', () => {
  it('shows the collection and its value only once its owner makes it public', async () => {
    const owner = await accountWithKey(stack, 'profileowner', 'enterprise');
    await call(owner, 'POST', '/collection/add', { card_id: priced[2]!.card_id, quantity: 2 });
    const hidden = await call(null, 'GET', '/users/profileowner');
    assert.equal(hidden.status, 200);
    assert.deepEqual(
      [hidden.body.username, hidden.body.is_collection_public, hidden.body.collection, hidden.body.is_seller, hidden.body.listings],
      ['profileowner', false, null, false, []],
    );
    assert.match(hidden.body.member_since, /^\d{4}-\d{2}-\d{2}$/);
    assert.equal((await call(null, 'GET', '/users/nobody-at-all')).status, 404);
    assert.equal((await call(owner, 'POST', '/me/privacy', {})).status, 422);
    assert.equal((await call(null, 'POST', '/me/privacy', { is_collection_public: true })).status, 401);
    assert.deepEqual((await call(owner, 'POST', '/me/privacy', { is_collection_public: true })).body, {
      ok: true,
      is_collection_public: true,
    });
    const shown = (await call(null, 'GET', '/users/profileowner')).body;
    const summary = (await call(owner, 'GET', '/collection/summary')).body;
    assert.deepEqual([shown.collection!.portfolio_value, shown.collection!.card_count], [summary.total_value, 2]);
    assert.deepEqual(
      shown.collection!.items.map((e: Json) => [e.card_id, e.quantity]),
      [[priced[2]!.card_id, 2]],
    );
    await call(owner, 'POST', '/me/privacy', { is_collection_public: false });
    assert.equal((await call(null, 'GET', '/users/profileowner')).body.collection, null);
  });

  it('crops an avatar to 256×256 WebP without metadata, checked by content and size', async () => {
    const owner = await accountWithKey(stack, 'avatarowner', 'enterprise');
    const send = async (bytes: Buffer, name: string) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)]), name);
      const res = await fetch(`${stack.url}/me/avatar`, { method: 'POST', headers: owner.headers, body: form });
      return { status: res.status, body: (await res.json()) as any };
    };
    const scan = fs.readFileSync(path.resolve(repoRoot, '..', 'shared', 'data', 'images', 'pokemon-sv3pt5', 'sv3pt5-6.webp'));
    const png = await sharp(scan)
      .png()
      .withExif({ IFD0: { Copyright: 'GPS 48.2N 16.3E' } })
      .toBuffer();
    const stored = await send(png, 'me.exe');
    assert.equal(stored.status, 201, 'a PNG named .exe is a PNG');
    const served = Buffer.from(await (await fetch(stack.url + stored.body.avatar_url)).arrayBuffer());
    const meta = await sharp(served).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height, meta.exif], ['webp', 256, 256, undefined]);
    assert.equal((await call(null, 'GET', '/users/avatarowner')).body.avatar_url, stored.body.avatar_url);
    const program = Buffer.concat([Buffer.from('MZ\x90\x00\x03'), Buffer.alloc(2000, 0x41)]);
    const exe = await send(program, 'me.png');
    assert.equal(exe.status, 415, 'a program named .png is not a picture');
    const huge = await send(Buffer.concat([png, Buffer.alloc(6 * 1024 * 1024, 1)]), 'big.png');
    assert.deepEqual([huge.status, huge.body.detail], [413, 'the file is larger than 5 MB']);
  });
});
