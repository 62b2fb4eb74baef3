// Legacy catalogue endpoints over real stores (small demo): shapes, bounds, 404s, filters, and
// prices checked against values computed here from the raw tables.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fs from 'node:fs';
import { SealedDetail, SealedList } from '../schemas/legacy.js';
import {
  CardListResponse,
  CompareResponse,
  LegacyCardDetail,
  LegacyCardList,
  LegacySetList,
  SearchResponse,
  SetCompletion,
  SetStats,
  TcgList,
} from '../schemas/legacy.js';
import { expect422 as expect422At } from './support/assertions.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

const pg = async <T>(sql: string, params: unknown[] = []) => (await stack.stores.pg.pool.query(sql, params)).rows as T[];
const expect422 = (path: string, loc: (string | number)[], type?: string) => expect422At(stack, path, loc, type);
const cardId = async (externalKey: string) =>
  (await pg<{ id: number }>('SELECT id FROM cards WHERE external_key = $1', [externalKey]))[0]!.id;
const setId = async (externalKey: string) =>
  (await pg<{ id: number }>('SELECT id FROM sets WHERE external_key = $1', [externalKey]))[0]!.id;

/**
 * The reference price of every card, computed here from variant_prices_latest: the primary
 * variant (unlimited, not reverse holo, lowest id) and its lowest ungraded US market price of
 * the newest day.
 */
async function referencePrices(): Promise<Map<number, number>> {
  const variants = await pg<{ card_id: number; variant_id: number; print_run: string; finish: string }>(
    `SELECT p.card_id, v.id AS variant_id, p.print_run, v.finish FROM printings p JOIN variants v ON v.printing_id = p.id ORDER BY p.card_id, v.id`,
  );
  // Per card, the first variant by (not unlimited, reverse holo, id).
  const key = (v: (typeof variants)[number]) => [
    v.print_run !== 'unlimited' ? 1 : 0,
    v.finish === 'reverse-holofoil' ? 1 : 0,
    v.variant_id,
  ];
  const before = (x: number[], y: number[]) => x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
  const chosen = new Map<number, (typeof variants)[number]>();
  for (const v of variants) if (!chosen.has(v.card_id) || before(key(v), key(chosen.get(v.card_id)!)) < 0) chosen.set(v.card_id, v);
  const primary = new Map([...chosen.values()].map((v) => [v.variant_id, v.card_id]));
  const prices = await pg<{ variant_id: number; amount: string; as_of: string }>(
    `SELECT variant_id, amount::text, as_of::text FROM variant_prices_latest WHERE region = 'us' AND price_type = 'market' AND grading_company = 'raw' AND currency = 'USD'`,
  );
  const newest = new Map<number, { day: string; amount: number }>();
  for (const p of prices) {
    const card = primary.get(p.variant_id);
    if (card === undefined) continue;
    const seen = newest.get(card);
    const amount = Number(p.amount);
    if (!seen || p.as_of > seen.day || (p.as_of === seen.day && amount < seen.amount)) newest.set(card, { day: p.as_of, amount });
  }
  return new Map([...newest].map(([card, v]) => [card, v.amount]));
}

describe('games (TCGs)', () => {
  it('lists every game with its publisher, and reads one by slug', async () => {
    const { status, body } = await stack.json('/tcgs');
    assert.equal(status, 200);
    TcgList.parse(body);
    assert.deepEqual(body.items.map((t: { slug: string }) => t.slug).sort(), ['digimon', 'flesh-and-blood', 'lorcana', 'mtg', 'pokemon']);
    assert.ok(body.items.every((t: { created_at: string }) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(t.created_at)));
    const one = await stack.json('/tcgs/pokemon');
    assert.equal(one.body.publisher, 'The Pokémon Company');
    assert.equal('created_at' in one.body, false, 'created_at is a list field only');
    assert.deepEqual(await stack.json('/tcgs/yugioh').then((r) => [r.status, r.body]), [404, { detail: 'TCG not found' }]);
    await expect422('/tcgs/Not%20A%20Slug', ['path', 'slug']);
  });
});

describe('sets', () => {
  it('page with limit and offset until offset reaches total', async () => {
    const total = (
      await pg<{ n: number }>(`SELECT count(*)::int AS n FROM sets s JOIN games g ON g.id = s.game_id WHERE g.slug = 'pokemon'`)
    )[0]!.n;
    const seen: number[] = [];
    for (let offset = 0; ; offset += 2) {
      const { body } = await stack.json(`/pokemon/sets?limit=2&offset=${offset}`);
      LegacySetList.parse(body);
      assert.equal(body.total, total);
      seen.push(...body.items.map((s: { id: number }) => s.id));
      if (offset + 2 >= body.total) break;
    }
    assert.equal(new Set(seen).size, total);
    await expect422('/pokemon/sets?limit=201', ['query', 'limit']);
    await expect422('/pokemon/sets?offset=-1', ['query', 'offset']);
    assert.equal((await stack.json('/nogame/sets')).status, 404);
  });

  it('read one set of the game, and not a set of another game', async () => {
    const base = await setId('pokemontcg:base1');
    const set = await stack.json(`/pokemon/sets/${base}`);
    assert.deepEqual([set.body.code, set.body.total_cards, set.body.release_date], ['BS', 102, '1999-01-09']);
    assert.equal((await stack.json(`/mtg/sets/${base}`)).status, 404);
    const cards = await stack.json(`/pokemon/sets/${base}/cards`);
    LegacyCardList.parse(cards.body);
    assert.equal(cards.body.total, 102);
    assert.deepEqual(
      cards.body.items.slice(0, 3).map((c: { number: string }) => c.number),
      ['1', '2', '3'],
    );
  });

  it('give price statistics, top cards and completion that agree with the reference prices', async () => {
    const base = await setId('pokemontcg:base1');
    const ref = await referencePrices();
    const inSet = (await pg<{ id: number }>('SELECT id FROM cards WHERE set_id = $1', [base])).map((c) => c.id);
    const prices = inSet.flatMap((id) => (ref.has(id) ? [ref.get(id)!] : []));
    const stats = await stack.json(`/api/sets/${base}/stats`);
    SetStats.parse(stats.body);
    assert.equal(stats.body.card_count, 102);
    assert.equal(stats.body.priced_cards, prices.length);
    assert.equal(stats.body.min_price, Math.min(...prices));
    assert.equal(stats.body.max_price, Math.max(...prices));
    assert.ok(Math.abs(stats.body.total_value - prices.reduce((a, b) => a + b, 0)) < 1e-6);
    assert.equal(stats.body.set_value, stats.body.total_value);

    const top = await stack.json(`/api/sets/${base}/top-cards?limit=5`);
    const expected = inSet
      .filter((id) => ref.has(id))
      .sort((a, b) => ref.get(b)! - ref.get(a)! || a - b)
      .slice(0, 5);
    assert.deepEqual(
      top.body.map((c: { card_id: number }) => c.card_id),
      expected,
    );
    await expect422(`/api/sets/${base}/top-cards?limit=51`, ['query', 'limit']);
    assert.equal((await stack.json('/api/sets/999999/top-cards')).status, 404);

    const completion = await stack.json(`/api/sets/${base}/completion`);
    SetCompletion.parse(completion.body);
    assert.equal(
      completion.body.by_rarity.reduce((n: number, r: { cards: number }) => n + r.cards, 0),
      102,
    );
    assert.ok(Math.abs(completion.body.complete_set_value - stats.body.total_value) < 0.01);
    const langs = await stack.json(`/api/sets/${base}/related-langs`);
    assert.deepEqual(langs.body, { set_id: base, language: 'en', related: [] });
  });
});

describe('cards', () => {
  it('filter by set, rarity and name substring together, and page by offset or page', async () => {
    const base = await setId('pokemontcg:base1');
    const { body } = await stack.json(`/pokemon/cards?set_id=${base}&rarity=rare%20holo&name=CHAR`);
    assert.deepEqual(
      body.items.map((c: { name: string }) => c.name),
      ['Charizard'],
    );
    const all = await stack.json(`/pokemon/cards?name=char&limit=200`);
    const expectedTotal = (
      await pg<{ n: number }>(
        `SELECT count(*)::int AS n FROM cards c JOIN games g ON g.id = c.game_id WHERE g.slug = 'pokemon' AND c.name ILIKE '%char%'`,
      )
    )[0]!.n;
    assert.equal(all.body.total, expectedTotal);
    assert.ok(all.body.items.every((c: { name: string }) => c.name.toLowerCase().includes('char')));
    const byOffset = await stack.json('/pokemon/cards?limit=10&offset=10');
    const byPage = await stack.json('/pokemon/cards?limit=10&page=2');
    assert.deepEqual(byPage.body, byOffset.body);
    // Both given: the page wins (documented on the parameter).
    assert.deepEqual((await stack.json('/pokemon/cards?limit=10&page=2&offset=30')).body, byOffset.body);
    await expect422('/pokemon/cards?limit=0', ['query', 'limit']);
    await expect422('/pokemon/cards?set_id=abc', ['query', 'set_id'], 'type_error.integer');
    await expect422('/pokemon/cards?limit=2.5', ['query', 'limit'], 'type_error.integer');
    // 2.0 is an integer to JSON Schema, which the document's `type: integer` speaks.
    assert.deepEqual((await stack.json('/pokemon/cards?limit=10.0&page=2.0')).body, byOffset.body);
    await expect422('/pokemon/cards?colour=red', ['query', 'colour'], 'value_error.extra');
  });

  it('read a card with its prices per source and variant, its illustrator and legalities', async () => {
    const charizard = await cardId('pokemontcg:base1-4');
    const { status, body } = await stack.json(`/pokemon/cards/${charizard}`);
    assert.equal(status, 200);
    LegacyCardDetail.parse(body);
    assert.deepEqual([body.name, body.number, body.illustrator, body.master_card_id], ['Charizard', '4', 'Mitsuhiro Arita', charizard]);
    assert.deepEqual(body.legalities, { unlimited: 'Legal' });
    assert.equal(body.local_image_url, `/static/images/cards/${charizard}/large`);
    // Every US market price in the response is the stored latest one for that source and variant.
    const stored = await pg<{ source: string; amount: string; finish: string; print_run: string }>(
      `SELECT l.source, l.amount::text, v.finish, p.print_run FROM variant_prices_latest l JOIN variants v ON v.id = l.variant_id JOIN printings p ON p.id = v.printing_id
       WHERE p.card_id = $1 AND l.region = 'us' AND l.price_type = 'market' AND l.grading_company = 'raw'`,
      [charizard],
    );
    assert.ok(stored.length > 0);
    for (const s of stored) {
      const variant = s.print_run === 'unlimited' ? s.finish : `${s.print_run} ${s.finish}`;
      const row = body.prices.find((p: { source: string; variant: string }) => p.source === s.source && p.variant === variant);
      assert.ok(row, `a ${s.source} price for ${variant}`);
      assert.equal(row.market_price, Number(s.amount));
    }
    assert.equal((await stack.json(`/mtg/cards/${charizard}`)).status, 404);
    assert.equal((await stack.json('/pokemon/cards/99999999')).status, 404);
  });

  it('list the dearest cards across games, newly added cards and compare up to three', async () => {
    const ref = await referencePrices();
    const top = await stack.json('/cards/top?limit=5');
    CardListResponse.parse(top.body);
    assert.deepEqual(
      top.body.items.map((c: { id: number }) => c.id),
      [...ref]
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .slice(0, 5)
        .map(([id]) => id),
    );
    const pokemonTop = await stack.json('/cards/top?limit=3&tcg_slug=pokemon');
    assert.equal(pokemonTop.body.items.length, 3);
    assert.ok(pokemonTop.body.items.every((c: { tcg_slug: string }) => c.tcg_slug === 'pokemon'));
    await expect422('/cards/top?limit=101', ['query', 'limit']);

    // The demo catalogue was imported just now: all of it is recent, nothing is newer than tomorrow.
    const cards = (await pg<{ n: number }>('SELECT count(*)::int AS n FROM cards'))[0]!.n;
    assert.equal((await stack.json('/api/recent-cards?limit=1')).body.total, cards);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    assert.deepEqual((await stack.json(`/api/new-cards?since=${tomorrow}`)).body, { items: [], total: 0 });
    await expect422('/api/new-cards?since=2026-02-30', ['query', 'since']);
    await expect422('/api/recent-cards?limit=101', ['query', 'limit']);

    const [a, b] = [await cardId('pokemontcg:base1-4'), await cardId('pokemontcg:base1-2')];
    const compared = await stack.json(`/api/compare?ids=${a},${b},99999999`);
    CompareResponse.parse(compared.body);
    assert.deepEqual(
      compared.body.items.map((c: { id: number }) => c.id),
      [a, b],
    );
    assert.deepEqual(compared.body.missing, [99999999]);
    const [cheap, dear] = ref.get(a)! < ref.get(b)! ? [a, b] : [b, a];
    assert.deepEqual([compared.body.cheapest_card_id, compared.body.dearest_card_id], [cheap, dear]);
    await expect422('/api/compare?ids=1,2,3,4', ['query', 'ids']);
    await expect422('/api/compare?ids=1,5469340066', ['query', 'ids']);
    await expect422('/api/compare?ids=', ['query', 'ids']);
    await expect422('/api/compare', ['query', 'ids'], 'value_error.missing');
  });

  it('link to the marketplaces by product id when known, else by search', async () => {
    const mtg = (
      await pg<{ card_id: number; ref_value: string }>(
        `SELECT card_id, ref_value FROM cross_refs WHERE ref_key = 'eu_marketplace_product_id' LIMIT 1`,
      )
    )[0]!;
    const linked = await stack.json(`/api/cards/${mtg.card_id}/marketplace-urls`);
    assert.equal(linked.body.european_marketplace_url, `https://www.cardmarket.com/en/Magic/Products?idProduct=${mtg.ref_value}`);
    assert.equal(linked.body.variant, 'normal');
    const charizard = await cardId('pokemontcg:base1-4');
    const searched = await stack.json(`/api/cards/${charizard}/marketplace-urls?variant=1st-edition`);
    assert.match(searched.body.us_marketplace_url, /^https:\/\/www\.tcgplayer\.com\/search\/pokemon\/product\?q=Charizard%204$/);
    assert.match(searched.body.auction_url, /_nkw=Charizard%204%20Base%201st%20edition/);
    assert.equal((await stack.json('/api/cards/99999999/marketplace-urls')).status, 404);
  });

  it('walk a Pokémon evolution line, and refuse other games', async () => {
    const [charmander, charmeleon, charizard] = [
      await cardId('pokemontcg:base1-46'),
      await cardId('pokemontcg:base1-24'),
      await cardId('pokemontcg:base1-4'),
    ];
    const expected = [
      { stage: 0, name: 'Charmander', card_id: charmander },
      { stage: 1, name: 'Charmeleon', card_id: charmeleon },
      { stage: 2, name: 'Charizard', card_id: charizard },
    ];
    assert.deepEqual((await stack.json(`/api/cards/${charizard}/evolution-chain`)).body.chain, expected);
    assert.deepEqual((await stack.json(`/api/cards/${charmander}/evolution-chain`)).body.chain, expected);
    const fab = (
      await pg<{ id: number }>(`SELECT c.id FROM cards c JOIN games g ON g.id = c.game_id WHERE g.slug = 'flesh-and-blood' LIMIT 1`)
    )[0]!.id;
    assert.equal((await stack.json(`/api/cards/${fab}/evolution-chain`)).status, 404);
  });
});

describe('search', () => {
  it("needs q, in the spec's 422 shape", async () => {
    const { status, body } = await stack.json('/api/search');
    assert.equal(status, 422);
    assert.deepEqual(body, { detail: [{ loc: ['query', 'q'], msg: 'field required', type: 'value_error.missing' }] });
    await expect422('/api/search?q=a&limit=201', ['query', 'limit']);
    await expect422('/api/search?q=a&foil_status=shiny', ['query', 'foil_status']);
  });

  it('ranks exact before prefix before similar names, and finds misspellings', async () => {
    const { body } = await stack.json('/api/search?q=charizard');
    SearchResponse.parse(body);
    assert.equal(body.items[0]!.name, 'Charizard');
    assert.equal(body.items[0]!.match, 'exact');
    const ranks = body.items.map((i: { match: string }) => ['exact', 'prefix', 'words', 'similar'].indexOf(i.match));
    assert.deepEqual(
      ranks,
      [...ranks].sort((a, b) => a - b),
    );
    const typo = await stack.json('/api/search?q=charzard');
    assert.ok(typo.body.items.some((i: { name: string }) => i.name === 'Charizard'));
    assert.equal((await stack.json('/api/search?q=zzzzqqqq')).body.total, 0);
  });

  it('ANDs every filter, and reports the reference price and its 7-day change', async () => {
    const ref = await referencePrices();
    const base = await setId('pokemontcg:base1');
    const filtered = await stack.json(`/api/search?q=a&tcg_slug=pokemon&set_id=${base}&min_price=5&max_price=50&limit=200`);
    assert.ok(filtered.body.total > 0);
    for (const item of filtered.body.items) {
      assert.equal(item.card_set_id, base);
      assert.equal(item.best_price, ref.get(item.id));
      assert.ok(item.best_price >= 5 && item.best_price <= 50);
      assert.ok(item.name.toLowerCase().includes('a') || item.match === 'similar');
    }
    const foil = await stack.json('/api/search?q=pikachu&foil_status=foil&limit=200');
    const foilCards = new Set(
      (
        await pg<{ card_id: number }>(
          `SELECT DISTINCT p.card_id FROM printings p JOIN variants v ON v.printing_id = p.id WHERE v.finish NOT IN ('normal', 'holofoil', 'etched')`,
        )
      ).map((r) => r.card_id),
    );
    assert.ok(foil.body.items.length > 0 && foil.body.items.every((i: { id: number }) => foilCards.has(i.id)));
    assert.ok(foil.body.items.some((i: { price_change_7d: number | null }) => typeof i.price_change_7d === 'number'));
    assert.equal((await stack.json('/api/search?q=pikachu&language=ja')).body.total, 0);
  });

  it('prices a condition as the near-mint reference × its factor, bounds included', async () => {
    const ref = await referencePrices();
    const base = await setId('pokemontcg:base1');
    const played = await stack.json(`/api/search?q=a&set_id=${base}&condition=HP&min_price=5&max_price=50&limit=200`);
    assert.equal(played.status, 200);
    assert.ok(played.body.total > 0);
    for (const item of played.body.items) {
      assert.equal(item.best_price, Math.round(ref.get(item.id)! * 0.5 * 100) / 100);
      assert.ok(item.best_price >= 5 && item.best_price <= 50, `${item.name} ${item.best_price}`);
    }
    // The same bounds select other cards in another condition.
    const nearMint = await stack.json(`/api/search?q=a&set_id=${base}&min_price=5&max_price=50&limit=200`);
    const nmIds = new Set(nearMint.body.items.map((i: { id: number }) => i.id));
    const hpIds = new Set(played.body.items.map((i: { id: number }) => i.id));
    assert.notDeepEqual(hpIds, nmIds);
    await expect422('/api/search?q=a&condition=mint', ['query', 'condition']);
  });
});

describe('sealed products', () => {
  it("list a game's sealed products with today's guide price, and read one with its history", async () => {
    const dir = `${stack.config.sharedDataDir}/prices/cardmarket-digimon`;
    const products = JSON.parse(fs.readFileSync(`${dir}/products_nonsingles_17.json`, 'utf8')).products as {
      idProduct: number;
      name: string;
    }[];
    const guide = new Map(
      (
        JSON.parse(fs.readFileSync(`${dir}/price_guide_17.json`, 'utf8')).priceGuides as {
          idProduct: number;
          trend: number | null;
          avg: number | null;
          low: number | null;
        }[]
      ).map((g) => [g.idProduct, g.trend || g.avg || g.low]),
    );
    const { status, body } = await stack.json('/digimon/sealed?limit=200');
    assert.equal(status, 200);
    SealedList.parse(body);
    assert.equal(body.total, products.length);
    const ids = (await pg<{ id: number; eu: string }>('SELECT id, eu_marketplace_product_id AS eu FROM sealed_products')).map(
      (r) => [r.id, Number(r.eu)] as const,
    );
    const cardmarketId = new Map(ids);
    for (const item of body.items) {
      const expected = guide.get(cardmarketId.get(item.id)!);
      if (expected) assert.equal(item.market_price_eur, Math.max(0.5, Math.round(expected * 100) / 100), item.name);
      else assert.equal(item.market_price_eur, null);
    }
    const box = body.items.find(
      (p: { category: string; market_price_eur: number | null }) => p.category === 'Booster Boxes' && p.market_price_eur !== null,
    );
    const one = await stack.json(`/digimon/sealed/${box!.id}`);
    SealedDetail.parse(one.body);
    const trend = one.body.price_history.filter((h: { price_type: string }) => h.price_type === 'trend');
    assert.equal(trend.length, 365);
    assert.equal(trend.at(-1)!.price, box!.market_price_eur);
    assert.equal((await stack.json(`/pokemon/sealed/${box!.id}`)).status, 404);
    assert.deepEqual((await stack.json('/pokemon/sealed')).body, { items: [], total: 0, limit: 50, offset: 0 });
    await expect422('/digimon/sealed?limit=201', ['query', 'limit']);
  });
});

describe('HTML-style URLs', () => {
  // Raw fetch, not the typed call: these answers are redirects and HTML pages, and call follows redirects and reads JSON.
  const get = (path: string, headers: Record<string, string>) => fetch(stack.url + path, { headers, redirect: 'manual' });
  const browser = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

  it('send browsers to the page in their language, and serve API clients directly', async () => {
    const res = await get('/tcgs/pokemon?x=1', browser);
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/en/tcgs/pokemon?x=1');
    assert.match(res.headers.get('vary') ?? '', /Accept-Language/);
    const dutch = await get('/pokemon/sets', { ...browser, 'Accept-Language': 'nl-NL,nl;q=0.9,en;q=0.5' });
    assert.equal(dutch.headers.get('location'), '/nl/pokemon/sets');
    assert.equal((await get('/cards/top', browser)).headers.get('location'), '/en/cards/top');
    // The localised page is the same resource; API clients never see a redirect.
    const localised = await get('/en/tcgs/pokemon', browser);
    assert.equal(localised.status, 200);
    assert.deepEqual(await localised.json(), (await stack.json('/tcgs/pokemon')).body);
    assert.equal((await get('/tcgs/pokemon', { Accept: 'application/json' })).status, 200);
    assert.equal((await get('/tcgs/pokemon', {})).status, 200);
  });

  it('never redirect the paths the spec exempts', async () => {
    for (const path of [
      '/tcgs',
      '/api/search?q=pikachu',
      '/api/v2/games',
      '/openapi.json',
      '/health',
      '/stats',
      '/auth/login',
      '/users/1',
      '/seller/x',
      '/dl/t/f.csv',
    ]) {
      const res = await get(path, browser);
      assert.notEqual(res.status, 302, path);
    }
  });
});
