// Incremental sync: a client that synced before fetches only what changed since: the price-changes
// feed (cursor paging that never skips a commit made while paging), updated_after on the v2 set
// and card listings, and the external id change log written by the catalogue sync.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { IdChangesResponse, PriceChangesResponse } from '../schemas/sync.js';
import { GameResponse, SetResponse } from '../schemas/v2.js';
import { loadPricePoints } from '../ingest/load/pricePoints.js';
import { upsertCatalogue } from '../ingest/catalogue/upsert.js';
import { importCatalogues } from '../ingest/catalogue/index.js';
import { createLogger } from '../sql/runtime/log.js';
import type { CatalogueBatch } from '../ingest/catalogue/model.js';
import type { PricePointRow } from '../ingest/pricePoint.js';
import { startStack, type Stack } from './support/stack.js';
import { until } from './support/until.js';

let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

type Json = any;
const byText = (a: string, b: string) => a.localeCompare(b);

/** Pages a feed from `start` to its end; every item and the cursor to continue with later. */
async function drain(
  path: '/api/v2/price-changes' | '/api/v2/id-changes',
  start: string,
  size = 500,
): Promise<{ items: Json[]; cursor: string; pages: number }> {
  const items: Json[] = [];
  let query = start;
  let pages = 0;
  for (;;) {
    const { status, body } = await stack.json(`${path}?size=${size}${query}`);
    assert.equal(status, 200, JSON.stringify(body));
    pages++;
    items.push(...body.items);
    if (!body.has_more) return { items, cursor: body.next_cursor, pages };
    query = `&cursor=${body.next_cursor}`;
  }
}

const pgRows = async (sql: string, params: unknown[] = []) => (await stack.stores.pg.pool.query(sql, params)).rows;

describe('GET /api/v2/price-changes', () => {
  it('pages every latest price once, then only the series a new load changed', async () => {
    const [{ n }] = await pgRows('SELECT count(*)::int AS n FROM variant_prices_latest');
    const all = await drain('/api/v2/price-changes', '', 1000);
    PriceChangesResponse.parse({ items: all.items.slice(0, 3), next_cursor: all.cursor, has_more: false });
    assert.equal(all.items.length, n);
    assert.ok(all.pages > 1, 'the demo has more than one page of prices');
    assert.equal(
      new Set(all.items.map((i: Json) => `${i.variant_id}|${i.region}|${i.source}|${i.price_type}|${i.grading_company}|${i.grade}`)).size,
      n,
    );

    // A new ingestion run: three series change value, two are re-fetched unchanged.
    const series = await pgRows(
      `SELECT l.variant_id, p.card_id, g.slug AS game, l.region, l.source, l.price_type, l.grading_company, l.grade, l.currency,
              l.amount::text AS amount, l.as_of::text AS as_of
       FROM variant_prices_latest l JOIN variants v ON v.id = l.variant_id JOIN printings p ON p.id = v.printing_id
       JOIN cards c ON c.id = p.card_id JOIN games g ON g.id = c.game_id
       WHERE l.grading_company = 'raw' ORDER BY l.variant_id, l.source, l.price_type LIMIT 5`,
    );
    const rows: PricePointRow[] = series.map((s: Json, i: number) => ({
      ...s,
      amount: i < 3 ? (Number(s.amount) + 1.25).toFixed(4) : s.amount,
      is_outlier: false,
    }));
    await loadPricePoints(stack.loadTargets(), rows, { id: 'sync-test-run', ingestedAt: new Date() });

    // The feed holds back what committed after a transaction still writing began (on a shared
    // PostgreSQL server, another database's too: the suite's server pass), so a reader polls.
    const since = await until(
      'the load in the price feed',
      async () => {
        const page = await drain('/api/v2/price-changes', `&cursor=${all.cursor}`);
        return page.items.length > 0 ? page : undefined;
      },
      30_000,
    );
    assert.deepEqual(
      since.items.map((i: Json) => `${i.variant_id}|${i.source}|${i.price_type}|${i.amount}`).sort(byText),
      rows
        .slice(0, 3)
        .map((r) => `${r.variant_id}|${r.source}|${r.price_type}|${Number(r.amount)}`)
        .sort(byText),
    );
    // Nothing more after that: the feed is caught up.
    assert.deepEqual((await drain('/api/v2/price-changes', `&cursor=${since.cursor}`)).items, []);
    // updated_after gives the same three (a client that kept a time instead of a cursor).
    const changedAt = since.items.map((i: Json) => i.changed_at as string).sort(byText)[0]!;
    const byTime = await drain('/api/v2/price-changes', `&updated_after=${new Date(Date.parse(changedAt) - 1).toISOString()}`);
    assert.equal(byTime.items.length, 3);
    // One game's feed holds only that game's cards.
    const lorcana = await drain('/api/v2/price-changes', '&game=lorcana', 1000);
    const [{ m }] = await pgRows(
      `SELECT count(*)::int AS m FROM variant_prices_latest l JOIN variants v ON v.id = l.variant_id JOIN printings p ON p.id = v.printing_id
       JOIN cards c ON c.id = p.card_id JOIN games g ON g.id = c.game_id WHERE g.slug = 'lorcana'`,
    );
    assert.equal(lorcana.items.length, m);
  });

  it('never places a change committed while a client pages behind its cursor', async () => {
    const start = (await drain('/api/v2/price-changes', '', 1000)).cursor;
    const [row] = await pgRows(`SELECT variant_id, region, source, price_type, grading_company, grade FROM variant_prices_latest LIMIT 1`);
    // An ingestion transaction is writing and has not committed yet.
    const writer = await stack.stores.pg.pool.connect();
    try {
      await writer.query('BEGIN');
      await writer.query(
        `UPDATE variant_prices_latest SET amount = amount + 3, changed_at = now(), change_xid = pg_current_xact_id(),
                change_seq = nextval('price_change_seq')
         WHERE variant_id = $1 AND region = $2 AND source = $3 AND price_type = $4 AND grading_company = $5 AND grade = $6`,
        [row.variant_id, row.region, row.source, row.price_type, row.grading_company, row.grade],
      );
      // Meanwhile a later transaction commits a change of its own.
      await loadPricePoints(stack.loadTargets(), [await oneRawSeriesChanged(row.variant_id)], {
        id: 'sync-test-concurrent',
        ingestedAt: new Date(),
      });
      const during = await drain('/api/v2/price-changes', `&cursor=${start}`);
      assert.equal(during.items.length, 0, 'a page waits for the transaction that is still writing');
      await writer.query('COMMIT');
      // As in the test above: on the suite's shared server another database's open transaction
      // may hold the horizon a little longer (pass 2 once read 0 here at once), so a reader polls.
      const afterCommit = await until(
        'both changes in the feed after the commit',
        async () => {
          const page = await drain('/api/v2/price-changes', `&cursor=${during.cursor}`);
          return page.items.length >= 2 ? page : undefined;
        },
        30_000,
      );
      assert.equal(afterCommit.items.length, 2, 'both changes arrive once the earlier writer commits');
      assert.ok(afterCommit.items.some((i: Json) => i.variant_id === row.variant_id && i.source === row.source));
    } finally {
      writer.release();
    }
  });

  it('refuses a cursor it did not issue and a bad time', async () => {
    for (const q of ['cursor=abc', 'cursor=1', 'updated_after=yesterday', 'size=0', 'size=1001', 'game=NOT A SLUG']) {
      const { status, body } = await stack.json(`/api/v2/price-changes?${q}`);
      assert.equal(status, 422, q);
      assert.equal(body.detail[0].loc[0], 'query');
    }
  });
});

async function oneRawSeriesChanged(notVariant: number): Promise<PricePointRow> {
  const [s] = await pgRows(
    `SELECT l.variant_id, p.card_id, g.slug AS game, l.region, l.source, l.price_type, l.grading_company, l.grade, l.currency,
            (l.amount + 7)::text AS amount, l.as_of::text AS as_of
     FROM variant_prices_latest l JOIN variants v ON v.id = l.variant_id JOIN printings p ON p.id = v.printing_id
     JOIN cards c ON c.id = p.card_id JOIN games g ON g.id = c.game_id
     WHERE l.grading_company = 'raw' AND l.variant_id <> $1 ORDER BY l.variant_id DESC LIMIT 1`,
    [notVariant],
  );
  return { ...s, is_outlier: false };
}

describe('external id change log and updated_after on the catalogue', () => {
  it('records a changed cross-reference and shows only the changed card and set', async () => {
    // Every Pokémon variant got its pokemontcg.io id when the catalogue was first imported.
    const first = await drain('/api/v2/id-changes', '&kind=pokemontcg_io', 1000);
    const [{ n }] = await pgRows(
      `SELECT count(*)::int AS n FROM variants v JOIN printings p ON p.id = v.printing_id JOIN cards c ON c.id = p.card_id
       JOIN games g ON g.id = c.game_id WHERE g.slug = 'pokemon'`,
    );
    assert.equal(first.items.length, n);
    assert.ok(first.items.every((i: Json) => i.before === null && i.reason.startsWith('first seen: catalogue sync')));
    const end = (await drain('/api/v2/id-changes', '', 1000)).cursor;

    // Re-importing the same catalogue changes nothing: no log entries, no updated_at moved.
    const [{ t0 }] = await pgRows(`SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t0`);
    await importCatalogues(stack.stores.pg.pool, stack.config.sharedDataDir, 'small', createLogger('error'));
    assert.deepEqual((await drain('/api/v2/id-changes', `&cursor=${end}`)).items, []);
    for (const slug of ['pokemon', 'mtg', 'lorcana', 'flesh-and-blood']) {
      assert.equal((await stack.json(`/api/v2/games/${slug}?updated_after=${t0}`)).body.sets_total, 0, slug);
    }
    const card = (
      await pgRows(
        `SELECT c.id, c.external_key, c.name, c.collector_number, c.rarity, c.card_type, to_jsonb(c.subtypes) AS subtypes, c.artist,
                c.attributes, c.legalities, s.id AS set_id, s.external_key AS set_key
         FROM cards c JOIN sets s ON s.id = c.set_id JOIN games g ON g.id = c.game_id
         WHERE g.slug = 'mtg' AND EXISTS (SELECT 1 FROM cross_refs r WHERE r.card_id = c.id AND r.ref_key = 'us_marketplace_product_id')
           AND (SELECT count(*) FROM cards x WHERE x.set_id = c.set_id) > 1
         ORDER BY c.id LIMIT 1`,
      )
    )[0];
    const variants = await pgRows(
      `SELECT v.external_key, v.finish, v.variant_label, e.id_value AS tcgplayer, p.external_key AS printing_key
       FROM variants v JOIN printings p ON p.id = v.printing_id
       LEFT JOIN variant_external_ids e ON e.variant_id = v.id AND e.id_kind = 'tcgplayer_product'
       WHERE p.card_id = $1`,
      [card.id],
    );
    assert.ok(variants[0].tcgplayer, 'a Scryfall card carries its TCGplayer product id');
    const batch = (tcgplayer: string): CatalogueBatch => ({
      game: { slug: 'mtg', name: 'Magic: The Gathering', publisher: 'x', websiteUrl: 'x', description: 'x' },
      sets: [],
      cards: [
        {
          externalKey: card.external_key,
          setExternalKey: card.set_key,
          name: card.name,
          collectorNumber: card.collector_number,
          rarity: card.rarity,
          cardType: card.card_type,
          subtypes: card.subtypes,
          artist: card.artist,
          attributes: card.attributes,
          legalities: card.legalities,
          images: [],
          crossRefs: [],
          externalIds: { tcgplayer_product: tcgplayer },
          printings: [
            {
              externalKey: variants[0].printing_key,
              language: 'en',
              printRun: 'unlimited',
              collectorNumber: card.collector_number,
              isPromo: false,
              crossRefs: [],
              variants: variants.map((v: Json) => ({
                externalKey: v.external_key,
                finish: v.finish,
                variantLabel: v.variant_label,
                printRarity: null,
                isEx: null,
                isV: null,
                imageUrl: null,
              })),
            },
          ],
        },
      ],
    });
    // The upstream now states a different TCGplayer product (a corrected, once-swapped id).
    const summary = await upsertCatalogue(
      stack.stores.pg.pool,
      { ...batch('999000111'), sets: await setInputOf(card.set_key) },
      'catalogue sync: test upstream',
    );
    assert.equal(summary.externalIdChanges, variants.length);
    // The feed holds back what committed after a transaction still writing began (on a shared
    // PostgreSQL server, another database's too: the suite's server pass), so a reader polls.
    const changes = await until(
      'the id changes in the feed',
      async () => {
        const page = await drain('/api/v2/id-changes', `&cursor=${end}`);
        return page.items.length > 0 ? page : undefined;
      },
      30_000,
    );
    IdChangesResponse.parse({ items: changes.items, next_cursor: changes.cursor, has_more: false });
    assert.deepEqual(
      changes.items.map((i: Json) => [i.card_id, i.kind, i.before, i.after, i.reason]),
      variants.map((v: Json) => [card.id, 'tcgplayer_product', v.tcgplayer, '999000111', 'catalogue sync: test upstream']),
    );
    const [stored] = await pgRows(
      `SELECT id_value FROM variant_external_ids e JOIN variants v ON v.id = e.variant_id WHERE v.external_key = $1 AND id_kind = 'tcgplayer_product'`,
      [variants[0].external_key],
    );
    assert.equal(stored.id_value, '999000111');
    // Stating it again is not a change.
    await upsertCatalogue(stack.stores.pg.pool, { ...batch('999000111'), sets: await setInputOf(card.set_key) });
    assert.deepEqual((await drain('/api/v2/id-changes', `&cursor=${changes.cursor}`)).items, []);

    // The catalogue listings since t0 hold that card and its set alone.
    const game = await stack.json(`/api/v2/games/mtg?updated_after=${t0}`);
    assert.equal(game.status, 200);
    GameResponse.parse(game.body);
    assert.deepEqual(
      game.body.sets_list.map((s: Json) => s.id),
      [card.set_id],
    );
    assert.equal(game.body.sets_total, 1);
    assert.ok(Date.parse(game.body.sets_list[0]!.updated_at) > Date.parse(t0));
    const set = await stack.json(`/api/v2/sets/${card.set_id}?updated_after=${t0}`);
    SetResponse.parse(set.body);
    assert.deepEqual(
      set.body.cards.map((c: Json) => c.id),
      [card.id],
    );
    assert.equal(set.body.cards_total, 1);
    const whole = await stack.json(`/api/v2/sets/${card.set_id}`);
    assert.ok(whole.body.cards_total > 1);
    assert.equal((await stack.json(`/api/v2/games/pokemon?updated_after=${t0}`)).body.sets_total, 0);
  });
});

async function setInputOf(setKey: string): Promise<CatalogueBatch['sets']> {
  const [s] = await pgRows(
    `SELECT external_key, code, name, series, release_date::text AS release_date, total_cards, printed_total, is_promo, language, logo_url, symbol_url
     FROM sets WHERE external_key = $1`,
    [setKey],
  );
  return [
    {
      externalKey: s.external_key,
      code: s.code,
      name: s.name,
      series: s.series,
      releaseDate: s.release_date,
      totalCards: s.total_cards,
      printedTotal: s.printed_total,
      isPromo: s.is_promo,
      language: s.language,
      logoUrl: s.logo_url,
      symbolUrl: s.symbol_url,
    },
  ];
}
