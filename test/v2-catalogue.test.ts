// v2 catalogue endpoints over real stores: shapes, bounds, 404s, paging and card resolution.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CardDetail, GameResponse, GamesResponse, ResolveResponse, SetResponse } from '../schemas/v2.js';
import { upsertCatalogue } from '../ingest/catalogue/upsert.js';
import { expect422 as expect422At } from './support/assertions.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

const pgOne = async <T>(sql: string, params: unknown[] = []) => (await stack.stores.pg.pool.query(sql, params)).rows[0] as T;

const expect422 = (path: string, loc: (string | number)[], type?: string) => expect422At(stack, path, loc, type);

describe('GET /api/v2/games', () => {
  it('lists only games with cards, with counts matching the catalogue', async () => {
    const { status, body } = await stack.json('/api/v2/games');
    assert.equal(status, 200);
    GamesResponse.parse(body);
    const slugs = body.items.map((g: { slug: string }) => g.slug).sort();
    assert.deepEqual(slugs, ['flesh-and-blood', 'lorcana', 'mtg', 'pokemon']);
    const pokemon = body.items.find((g: { slug: string }) => g.slug === 'pokemon');
    const counts = await pgOne<{ cards: number; sets: number }>(
      `SELECT (SELECT count(*) FROM cards c JOIN games g ON g.id = c.game_id WHERE g.slug = 'pokemon')::int AS cards,
              (SELECT count(*) FROM sets s JOIN games g ON g.id = s.game_id WHERE g.slug = 'pokemon')::int AS sets`,
    );
    assert.equal(pokemon!.cards, counts.cards);
    assert.equal(pokemon!.sets, counts.sets);
  });

  it('hides a game that has no cards yet', async () => {
    await stack.stores.pg.pool.query(`INSERT INTO games (slug, name) VALUES ('empty-game', 'Empty') ON CONFLICT DO NOTHING`);
    const { body } = await stack.json('/api/v2/games');
    assert.ok(!body.items.some((g: { slug: string }) => g.slug === 'empty-game'));
    assert.equal((await stack.json('/api/v2/games/empty-game')).status, 404);
  });
});

describe('GET /api/v2/games/{slug}', () => {
  it('pages sets newest first with default size 50', async () => {
    const { status, body } = await stack.json('/api/v2/games/mtg');
    assert.equal(status, 200);
    GameResponse.parse(body);
    assert.equal(body.page, 1);
    assert.equal(body.size, 50);
    assert.equal(body.sets_total, 42);
    assert.equal(body.sets_list.length, 42);
    const dates = body.sets_list.map((s) => s.release_date);
    assert.deepEqual([...dates].sort((a, b) => a!.localeCompare(b!)).reverse(), dates);
    const page2 = (await stack.json('/api/v2/games/mtg?page=2&size=20')).body;
    assert.equal(page2.sets_list.length, 20);
    assert.equal(page2.sets_list[0]!.id, body.sets_list[20]!.id);
  });

  it('404s an unknown game with {detail}', async () => {
    const { status, body } = await stack.json('/api/v2/games/no-such-game');
    assert.equal(status, 404);
    assert.equal(typeof body.detail, 'string');
  });

  it('rejects out-of-range and malformed paging with 422 and the right loc', async () => {
    await expect422('/api/v2/games/pokemon?size=0', ['query', 'size'], 'value_error.number.not_ge');
    await expect422('/api/v2/games/pokemon?size=201', ['query', 'size'], 'value_error.number.not_le');
    await expect422('/api/v2/games/pokemon?page=0', ['query', 'page']);
    await expect422('/api/v2/games/pokemon?size=ten', ['query', 'size'], 'type_error.integer');
    await expect422('/api/v2/games/pokemon?sise=10', ['query', 'sise'], 'value_error.extra');
    assert.equal((await stack.json('/api/v2/games/pokemon?size=200')).status, 200);
  });
});

describe('GET /api/v2/sets/{set_id}', () => {
  it('returns the header and cards in collector-number order', async () => {
    const base = await pgOne<{ id: number }>(`SELECT id FROM sets WHERE external_key = 'pokemontcg:base1'`);
    const { status, body, headers } = await stack.json(`/api/v2/sets/${base.id}`);
    assert.equal(status, 200);
    SetResponse.parse(body);
    assert.match(headers.get('cache-control') ?? '', /^public, max-age=(1[2-9]\d|2\d\d|300)$/);
    assert.equal(body.game.slug, 'pokemon');
    assert.equal(body.cards_total, 102);
    assert.equal(body.size, 60);
    assert.equal(body.cards.length, 60);
    assert.deepEqual(
      body.cards.slice(0, 3).map((c: { collector_number: string }) => c.collector_number),
      ['1', '2', '3'],
    );
    assert.equal(body.cards[3]!.name, 'Charizard');
    const last = (await stack.json(`/api/v2/sets/${base.id}?page=2&size=60`)).body;
    assert.equal(last.cards.length, 42);
    assert.equal(last.cards.at(-1)!.collector_number, '102');
  });

  it('bounds size to 1..250 and needs an integer id', async () => {
    await expect422('/api/v2/sets/1?size=251', ['query', 'size']);
    await expect422('/api/v2/sets/1?size=0', ['query', 'size']);
    await expect422('/api/v2/sets/abc', ['path', 'set_id'], 'type_error.integer');
    await expect422('/api/v2/sets/1.5', ['path', 'set_id'], 'type_error.integer');
    assert.equal((await stack.json('/api/v2/sets/1?size=250')).status, 200);
  });

  it('404s an unknown set', async () => {
    assert.equal((await stack.json('/api/v2/sets/999999')).status, 404);
  });
});

describe('GET /api/v2/cards/{card_id}', () => {
  it('returns printings, variants and prices in the spec shape', async () => {
    const charizard = await pgOne<{ id: number }>(`SELECT id FROM cards WHERE external_key = 'pokemontcg:base1-4'`);
    const { status, body } = await stack.json(`/api/v2/cards/${charizard.id}`);
    assert.equal(status, 200);
    CardDetail.parse(body);
    assert.equal(body.name, 'Charizard');
    assert.deepEqual(body.set, { id: body.set.id, code: 'BS', name: 'Base' });
    assert.deepEqual(Object.keys(body.cross_refs).sort(), [
      'eu_marketplace_product_id',
      'mtg_card_db_id',
      'mtg_dataset_uuid',
      'price_guide_id',
      'us_marketplace_product_id',
      'ygo_card_db_id',
    ]);
    assert.deepEqual(
      body.printings.map((p: { print_run: string }) => p.print_run),
      ['1st-edition', 'shadowless', 'unlimited'],
    );
    for (const p of body.printings) {
      assert.equal(p.variants.length, 1);
      assert.equal(p.variants[0]!.finish, 'holofoil');
      // Every printing has its US prices (the graded guide lists each); the European guide prices the common one.
      const prices = p.variants[0]!.prices;
      assert.ok(prices.us.length > 0, `${p.print_run} has US prices`);
      assert.equal(prices.eu.length > 0, p.print_run === 'unlimited', `${p.print_run}: European prices`);
    }
  });

  it('keeps cross-references from the upstream data', async () => {
    const mtg = await pgOne<{ id: number }>(`SELECT card_id AS id FROM cross_refs WHERE ref_key = 'eu_marketplace_product_id' LIMIT 1`);
    const { body } = await stack.json(`/api/v2/cards/${mtg.id}`);
    assert.match(body.cross_refs.eu_marketplace_product_id!, /^\d+$/);
    assert.match(body.cross_refs.mtg_card_db_id!, /^[0-9a-f-]{36}$/);
    assert.equal(body.cross_refs.ygo_card_db_id, null);
  });

  it('gives empty arrays, never null, where a card has no prices and a placeholder where it has no image', async () => {
    const summary = await upsertCatalogue(stack.stores.pg.pool, {
      game: { slug: 'test-unpriced', name: 'Unpriced', publisher: 'Holo tests', websiteUrl: 'https://example.com', description: 'test' },
      sets: [
        {
          externalKey: 'test:unpriced',
          code: 'UNP',
          name: 'Unpriced Set',
          series: null,
          releaseDate: '2026-01-01',
          totalCards: 1,
          printedTotal: 1,
          isPromo: false,
          language: 'en',
          logoUrl: null,
          symbolUrl: null,
        },
      ],
      cards: [
        {
          externalKey: 'test:unpriced-1',
          setExternalKey: 'test:unpriced',
          name: 'Nobody Sells Me',
          collectorNumber: '1',
          rarity: null,
          cardType: null,
          subtypes: [],
          artist: null,
          attributes: {},
          legalities: {},
          images: [],
          crossRefs: [],
          printings: [
            {
              externalKey: 'test:unpriced-1:en',
              language: 'en',
              printRun: 'unlimited',
              collectorNumber: '1',
              isPromo: false,
              crossRefs: [],
              variants: [
                {
                  externalKey: 'test:unpriced-1:en:normal',
                  finish: 'normal',
                  variantLabel: 'Normal',
                  printRarity: null,
                  isEx: null,
                  isV: null,
                  imageUrl: null,
                },
              ],
            },
          ],
        },
      ],
    });
    assert.equal(summary.cards, 1);
    const card = await pgOne<{ id: number; set_id: number }>(`SELECT id, set_id FROM cards WHERE external_key = 'test:unpriced-1'`);
    const { body } = await stack.json(`/api/v2/cards/${card.id}`);
    assert.deepEqual(body.printings[0]!.variants[0]!.prices, { eu: [], us: [], graded: [] });
    assert.equal(body.images.length, 1);
    assert.equal(body.images[0]!.is_placeholder, true);
    const set = (await stack.json(`/api/v2/sets/${card.set_id}`)).body;
    assert.equal(set.cards[0]!.thumbnail_url, null);
  });

  it('404s unknown cards and 422s non-integer ids', async () => {
    const missing = await stack.json('/api/v2/cards/987654321');
    assert.equal(missing.status, 404);
    assert.deepEqual(Object.keys(missing.body), ['detail']);
    await expect422('/api/v2/cards/abc', ['path', 'card_id'], 'type_error.integer');
    await expect422('/api/v2/cards/0', ['path', 'card_id']);
    await expect422('/api/v2/cards/99999999999', ['path', 'card_id']);
  });
});

describe('GET /api/v2/cards (resolve)', () => {
  it('resolves by game, name and number, case-insensitively, with number forms normalised', async () => {
    for (const q of ['name=charizard&number=4', 'name=CHARIZARD&number=004', 'name=Charizard&number=4/102', 'name=Charizard&set=BS']) {
      const { status, body } = await stack.json(`/api/v2/cards?game=pokemon&${q}`);
      assert.equal(status, 200, q);
      ResolveResponse.parse(body);
      assert.equal(body.total, 1, q);
      assert.equal(body.ambiguous, false);
      assert.equal(body.items[0]!.name, 'Charizard');
      assert.equal(body.items[0]!.set.code, 'BS');
    }
  });

  it('answers an ambiguous name with every candidate, flagged', async () => {
    // Mewtwo is in Base Set and in 151.
    const { body } = await stack.json('/api/v2/cards?game=pokemon&name=mewtwo');
    assert.ok(body.total >= 2);
    assert.equal(body.ambiguous, true);
    const sets = new Set(body.items.map((i: { set: { id: number } }) => i.set.id));
    assert.ok(sets.size >= 2);
  });

  it('404s no match and 422s missing parameters', async () => {
    assert.equal((await stack.json('/api/v2/cards?game=pokemon&name=Not%20A%20Card')).status, 404);
    await expect422('/api/v2/cards?name=Charizard', ['query', 'game'], 'value_error.missing');
    await expect422('/api/v2/cards?game=pokemon', ['query', 'name'], 'value_error.missing');
    await expect422('/api/v2/cards?game=pokemon&name=%00', ['query', 'name'], 'value_error.str.regex');
  });
});

describe('catalogue import', () => {
  it('re-importing keeps every id and adds nothing twice', async () => {
    const before = await pgOne<{ cards: number; max: number }>(`SELECT count(*)::int AS cards, max(id) AS max FROM cards`);
    const charizard = await pgOne<{ id: number }>(`SELECT id FROM cards WHERE external_key = 'pokemontcg:base1-4'`);
    const { importCatalogues } = await import('../ingest/catalogue/index.js');
    await importCatalogues(stack.stores.pg.pool, stack.config.sharedDataDir, 'small', {
      info() {},
      warn() {},
      error() {},
      debug() {},
      child() {
        return this;
      },
    });
    const afterRows = await pgOne<{ cards: number; max: number }>(`SELECT count(*)::int AS cards, max(id) AS max FROM cards`);
    assert.deepEqual(afterRows, before);
    assert.equal((await pgOne<{ id: number }>(`SELECT id FROM cards WHERE external_key = 'pokemontcg:base1-4'`)).id, charizard.id);
  });
});
