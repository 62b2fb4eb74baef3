// Mapping adapter rows to variants through the catalogue, and outlier flags against real history;
// the pipeline's set-based SQL (ingest/load/staged.ts) against the same rules in JavaScript.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { crossSourceEvidence, flagCrossSourceOutliers } from '../ingest/normalise/crossSource.js';
import { flagOutliers, isOutlier, seriesBaselines } from '../ingest/normalise/outliers.js';
import { mapToVariants } from '../ingest/normalise/mapVariants.js';
import { dropStage, flagStagedCrossSource, mapStaged, newStageId, stageParsedRows } from '../ingest/load/staged.js';
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

describe('the set-based pipeline (ClickHouse) against the JavaScript rules', () => {
  /**
   * The rows through both: mapToVariants, flagOutliers and flagCrossSourceOutliers in JavaScript;
   * staged, mapped and flagged in ClickHouse. Returns both, loaded rows in feed order.
   */
  async function bothWays(rows: SourceRow[], asOf: string) {
    const { pg, ch } = stack.stores;
    const mapped = await mapToVariants(pg.pool, rows);
    flagOutliers(mapped.points, await seriesBaselines(ch.client, mapped.points, asOf));
    const cross = flagCrossSourceOutliers(mapped.points, await crossSourceEvidence(ch.client, mapped.points, asOf));
    const stage = newStageId();
    try {
      await stageParsedRows({ ch: ch.client, id: stage, seqBase: 0 }, { rows, rejected: [] });
      const batch = { stage, batchId: `test-${stage}`, source: 'tcgplayer', game: 'pokemon', asOf, ingestedAt: new Date() };
      await mapStaged(ch.client, pg.pool, batch);
      await flagStagedCrossSource(ch.client, batch);
      const sql = await chRows<{ variant_id: number; is_outlier: boolean }>(
        ch.client,
        `SELECT variant_id, is_outlier OR (variant_id, source) IN (SELECT variant_id, source FROM holo.ingest_cross_source WHERE stage_id = {stage:String}) AS is_outlier
         FROM holo.ingest_mapped_rows WHERE stage_id = {stage:String} AND refused = '' ORDER BY seq`,
        { stage },
      );
      const sqlRejects = await chRows<{ ref: string; reason: string }>(
        ch.client,
        `SELECT ref, refused AS reason FROM holo.ingest_mapped_rows WHERE stage_id = {stage:String} AND refused != '' ORDER BY seq`,
        { stage },
      );
      const sqlCross = await chRows<{ ref: string }>(
        ch.client,
        `SELECT message AS ref FROM holo.ingest_cross_source WHERE stage_id = {stage:String} ORDER BY variant_id, source`,
        { stage },
      );
      const sorted = <T>(list: T[]) => list.map((x) => JSON.stringify(x)).sort();
      return {
        js: {
          points: mapped.points.map((p) => ({ variant_id: p.variant_id, is_outlier: p.is_outlier })),
          rejected: sorted(mapped.rejected),
          cross: sorted(cross.rejects.map((r) => r.ref)),
        },
        sql: {
          points: sql.map((p) => ({ variant_id: Number(p.variant_id), is_outlier: Boolean(p.is_outlier) })),
          rejected: sorted(sqlRejects),
          cross: sorted(sqlCross.map((r) => r.ref)),
        },
      };
    } finally {
      await dropStage(ch.client, stage);
    }
  }

  it('maps every case as mapToVariants does: print runs, finishes, generic foil, unknown and colliding references', async () => {
    const pool = stack.stores.pg.pool;
    const printingRefs = (
      await pool.query<{ ref_key: SourceRow['ref']['kind']; ref_value: string; finish: string; print_run: string }>(
        `SELECT r.ref_key, r.ref_value, v.finish, p.print_run FROM cross_refs r JOIN printings p ON p.id = r.printing_id JOIN variants v ON v.printing_id = p.id
         WHERE r.ref_key IN ('us_marketplace_product_id', 'eu_marketplace_product_id') ORDER BY r.ref_key, r.ref_value, v.id LIMIT 300`,
      )
    ).rows;
    const mtg = (
      await pool.query<{ ref_value: string }>(
        `SELECT ref_value FROM cross_refs WHERE ref_key = 'mtg_card_db_id' ORDER BY ref_value LIMIT 40`,
      )
    ).rows;
    assert.ok(printingRefs.length > 100 && mtg.length > 10, 'the small demo has marketplace and Magic references');
    const base = { kind: 'pokemontcg_id' as const, value: 'base1-4' };
    const rows: SourceRow[] = [
      row(base, 'holofoil', '1st-edition'),
      row(base, null, null),
      row(base, 'holofoil', 'shadowless'),
      row(base, 'reverse-holofoil', null),
      row(base, 'foil', null),
      row({ kind: 'pokemontcg_id', value: 'nope-1' }, null, null),
      ...printingRefs.map((r) => row({ kind: r.ref_key, value: r.ref_value }, r.finish, null)),
      ...printingRefs.slice(0, 50).map((r) => row({ kind: r.ref_key, value: r.ref_value }, null, r.print_run)),
      ...mtg.flatMap((r) => ['foil', 'etched', null, 'holofoil'].map((f) => row({ kind: 'mtg_card_db_id', value: r.ref_value }, f, null))),
      // Two products on one variant and day: both refused.
      row({ kind: 'pokemontcg_id', value: 'base1-2' }, null, null),
      row({ kind: 'pokemontcg_id', value: 'base1-2' }, null, null, '12.00'),
    ];
    const { js, sql } = await bothWays(rows, todayUtc());
    assert.ok(js.points.length > 200 && js.rejected.length > 20, `${js.points.length} mapped, ${js.rejected.length} refused`);
    assert.deepEqual(sql.points, js.points);
    assert.deepEqual(sql.rejected, js.rejected);
  });

  it('flags the same rows as the outlier and cross-source rules on the demo history', async () => {
    // The demo's Pokémon cards' tcgplayer market series (their median of the last 30 days), priced
    // today at a factor of it: ordinary moves, spikes, drops and mid-range jumps.
    const series = await chRows<{ variant_id: number; med: number }>(
      stack.stores.ch.client,
      `SELECT variant_id, toFloat64(median(amount)) AS med FROM holo.price_points
       WHERE game = 'pokemon' AND source = 'tcgplayer' AND price_type = 'market' AND grading_company = 'raw' AND NOT is_outlier
         AND as_of >= today() - 30 AND as_of < today()
       GROUP BY variant_id HAVING count() >= 5 ORDER BY variant_id LIMIT 400`,
    );
    const refs = new Map(
      (
        await stack.stores.pg.pool.query<{ variant_id: number; ref_value: string; finish: string; print_run: string }>(
          `SELECT v.id AS variant_id, substr(c.external_key, 12) AS ref_value, v.finish, p.print_run
           FROM variants v JOIN printings p ON p.id = v.printing_id JOIN cards c ON c.id = p.card_id
           WHERE c.external_key LIKE 'pokemontcg:%' AND v.id = ANY ($1)`,
          [series.map((s) => Number(s.variant_id))],
        )
      ).rows.map((r) => [r.variant_id, r]),
    );
    const factors = [1.03, 10, 0.05, 3.5, 0.3, 1, 0.97, 5];
    const rows: SourceRow[] = series.flatMap((s, i) => {
      const ref = refs.get(Number(s.variant_id));
      if (!ref) return [];
      const amount = (s.med * factors[i % factors.length]!).toFixed(2);
      return [row({ kind: 'pokemontcg_id', value: ref.ref_value }, ref.finish, ref.print_run, amount)];
    });
    const { js, sql } = await bothWays(rows, todayUtc());
    const flagged = js.points.filter((p) => p.is_outlier).length;
    assert.ok(js.points.length > 100 && flagged > 20 && flagged < js.points.length - 20, `${flagged} of ${js.points.length} flagged`);
    assert.ok(js.cross.length > 0, 'some rows disagree with the other sources');
    assert.deepEqual(sql.points, js.points);
    assert.deepEqual(sql.cross, js.cross);
    assert.deepEqual(sql.rejected, js.rejected);
  });
});
