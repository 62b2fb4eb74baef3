// Mapping adapter rows to variants through the catalogue, and outlier flags against real history.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { flagOutliers, isOutlier, seriesBaselines } from '../ingest/normalise/outliers.js';
import { mapToVariants } from '../ingest/normalise/mapVariants.js';
import type { SourceRow } from '../ingest/sources/types.js';
import { chRows, todayUtc } from './support/clickhouseRows.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

const row = (ref: SourceRow['ref'], finish: string | null, printRun: string | null, amount = '10.00'): SourceRow => ({
  ref,
  finish,
  printRun,
  region: 'us',
  source: 'tcgplayer',
  price_type: 'market',
  grading_company: 'raw',
  grade: '',
  currency: 'USD',
  amount,
  as_of: todayUtc(),
});

const variantOf = async (externalKey: string) =>
  (
    await stack.stores.pg.pool.query<{ id: number; card_id: number }>(
      `SELECT v.id, p.card_id FROM variants v JOIN printings p ON p.id = v.printing_id WHERE v.external_key = $1`,
      [externalKey],
    )
  ).rows[0]!;

describe('mapping to variants', () => {
  it('picks the variant by finish and print run, defaulting to the unlimited printing', async () => {
    const ref = { kind: 'pokemontcg_id' as const, value: 'base1-4' };
    const { points, rejected } = await mapToVariants(stack.stores.pg.pool, [
      row(ref, 'holofoil', '1st-edition'),
      row(ref, null, null),
      row(ref, 'holofoil', 'shadowless'),
      row(ref, 'reverse-holofoil', null),
      row({ kind: 'pokemontcg_id', value: 'nope-1' }, null, null),
    ]);
    assert.deepEqual(
      points.map((p) => p.variant_id),
      [
        (await variantOf('pokemontcg:base1-4:en:1st-edition:holofoil')).id,
        (await variantOf('pokemontcg:base1-4:en:unlimited:holofoil')).id,
        (await variantOf('pokemontcg:base1-4:en:shadowless:holofoil')).id,
      ],
    );
    assert.ok(points.every((p) => p.game === 'pokemon' && !p.is_outlier));
    assert.deepEqual(
      rejected.map((r) => r.reason),
      ['card has no reverse-holofoil variant', 'no catalogue card has this reference'],
    );
  });

  it('maps marketplace product ids to their own printing, and a generic foil to the one foil finish', async () => {
    const ref = (
      await stack.stores.pg.pool.query<{ ref_value: string; printing_id: number }>(
        `SELECT r.ref_value, r.printing_id FROM cross_refs r JOIN printings p ON p.id = r.printing_id
       WHERE r.ref_key = 'us_marketplace_product_id' AND (SELECT count(*) FROM variants v WHERE v.printing_id = p.id) = 1 LIMIT 1`,
      )
    ).rows[0]!;
    const { points } = await mapToVariants(stack.stores.pg.pool, [
      row({ kind: 'us_marketplace_product_id', value: ref.ref_value }, null, null),
    ]);
    const expected = (await stack.stores.pg.pool.query<{ id: number }>(`SELECT id FROM variants WHERE printing_id = $1`, [ref.printing_id]))
      .rows[0]!.id;
    assert.deepEqual(
      points.map((p) => p.variant_id),
      [expected],
    );
    // A generic "foil" row lands on the card's one foil finish, whatever the catalogue calls it:
    // Magic's foil, Lorcana's foil (Cold Foil), Pokémon's holofoil. Every case is in the small demo.
    const mtgFoil = (
      await stack.stores.pg.pool.query<{ ref_value: string; variant_id: number }>(
        `SELECT r.ref_value, v.id AS variant_id FROM cross_refs r JOIN printings p ON p.card_id = r.card_id JOIN variants v ON v.printing_id = p.id
       WHERE r.ref_key = 'mtg_card_db_id' AND v.finish = 'foil' ORDER BY r.ref_value LIMIT 1`,
      )
    ).rows[0];
    assert.ok(mtgFoil, 'the demo holds a Magic card with a foil finish');
    const lorcana = await variantOf('lorcanajson:1:en:unlimited:foil');
    assert.ok(lorcana, 'the demo holds the first Lorcana card in foil');
    // Lorcana carries no marketplace ids: its rows come from the price guide, linked by set name and number.
    const lorcanaCard = (
      await stack.stores.pg.pool.query<{ set_name: string; number: string }>(
        `SELECT s.name AS set_name, c.collector_number AS number FROM cards c JOIN sets s ON s.id = c.set_id WHERE c.id = $1`,
        [lorcana.card_id],
      )
    ).rows[0]!;
    const generic = await mapToVariants(stack.stores.pg.pool, [
      row({ kind: 'mtg_card_db_id', value: mtgFoil.ref_value }, 'foil', null),
      {
        ...row({ kind: 'price_guide_id', value: 'test-lorcana-foil' }, 'foil', null),
        hint: { game: 'lorcana', set: lorcanaCard.set_name, number: lorcanaCard.number },
      },
      row({ kind: 'pokemontcg_id', value: 'base1-4' }, 'foil', null),
    ]);
    assert.deepEqual(generic.rejected, []);
    assert.deepEqual(
      generic.points.map((p) => p.variant_id),
      [mtgFoil.variant_id, lorcana.id, (await variantOf('pokemontcg:base1-4:en:unlimited:holofoil')).id],
    );
  });
});

describe('outlier flags', () => {
  it('applies the robust rule: far from the median in MADs and in ratio', () => {
    assert.equal(isOutlier(100, 10, 0.5), true);
    assert.equal(isOutlier(14, 10, 0.5), false, 'a 40 % move is not an outlier, however calm the series');
    assert.equal(isOutlier(2, 10, 0.5), true);
    assert.equal(isOutlier(31, 10, 8), false, 'a wild series tolerates a 3x move');
  });

  it('flags a spike against the stored history and leaves ordinary and history-less points alone', async () => {
    const v = await variantOf('pokemontcg:base1-4:en:unlimited:holofoil');
    const [stats] = await chRows<{ med: number }>(
      stack.stores.ch.client,
      `SELECT toFloat64(median(amount)) AS med FROM holo.price_points FINAL
       WHERE variant_id = {v:UInt32} AND source = 'tcgplayer' AND price_type = 'market' AND NOT is_outlier AND as_of >= today() - 30 AND as_of < today()`,
      { v: v.id },
    );
    const base = {
      card_id: v.card_id,
      variant_id: v.id,
      game: 'pokemon',
      region: 'us' as const,
      source: 'tcgplayer',
      grading_company: 'raw',
      grade: '',
      currency: 'USD',
      as_of: todayUtc(),
      is_outlier: false,
    };
    const points = [
      { ...base, price_type: 'market', amount: (stats!.med * 10).toFixed(2) },
      { ...base, price_type: 'market', amount: (stats!.med * 1.05).toFixed(2) },
      { ...base, source: 'brand_new_source', price_type: 'market', amount: '99999.00' },
    ];
    assert.equal(flagOutliers(points, await seriesBaselines(stack.stores.ch.client, points, todayUtc())), 1);
    assert.deepEqual(
      points.map((p) => p.is_outlier),
      [true, false, false],
    );
  });
});
