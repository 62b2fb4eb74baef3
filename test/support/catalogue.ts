// A small synthetic game for tests that need cards whose whole price history the test controls.
import type pg from 'pg';
import { upsertCatalogue } from '../../ingest/catalogue/upsert.js';

export type TestCard = { card: number; variants: Record<string, number> };

/** One set of the game `slug` with a card per name, each with the given finishes (unlimited, English). */
export async function createTestCards(
  pool: pg.Pool,
  slug: string,
  names: string[],
  finishes: string[] = ['normal', 'holofoil'],
): Promise<Record<string, TestCard>> {
  await upsertCatalogue(pool, {
    game: { slug, name: slug, publisher: 'Holo tests', websiteUrl: 'https://example.com', description: 'test' },
    sets: [
      {
        externalKey: `test:${slug}`,
        code: slug.slice(0, 4).toUpperCase(),
        name: `${slug} set`,
        series: null,
        releaseDate: '2026-01-01',
        totalCards: names.length,
        printedTotal: names.length,
        isPromo: false,
        language: 'en',
        logoUrl: null,
        symbolUrl: null,
      },
    ],
    cards: names.map((name, n) => ({
      externalKey: `test:${slug}-${name}`,
      setExternalKey: `test:${slug}`,
      name: `${slug} ${name}`,
      collectorNumber: String(n + 1),
      rarity: 'Rare Holo',
      cardType: null,
      subtypes: [],
      artist: null,
      attributes: {},
      legalities: {},
      images: [],
      crossRefs: [],
      printings: [
        {
          externalKey: `test:${slug}-${name}:en`,
          language: 'en',
          printRun: 'unlimited',
          collectorNumber: String(n + 1),
          isPromo: false,
          crossRefs: [],
          variants: finishes.map((f) => ({
            externalKey: `test:${slug}-${name}:en:${f}`,
            finish: f,
            variantLabel: f,
            printRarity: null,
            isEx: null,
            isV: null,
            imageUrl: null,
          })),
        },
      ],
    })),
  });
  const rows = (
    await pool.query<{ external_key: string; card: number; variant: number; finish: string }>(
      `SELECT c.external_key, c.id AS card, v.id AS variant, v.finish FROM cards c JOIN printings p ON p.card_id = c.id JOIN variants v ON v.printing_id = p.id
     WHERE c.external_key LIKE $1 ORDER BY v.id`,
      [`test:${slug}-%`],
    )
  ).rows;
  const out: Record<string, TestCard> = {};
  for (const r of rows) {
    const name = r.external_key.slice(`test:${slug}-`.length);
    out[name] ??= { card: r.card, variants: {} };
    out[name]!.variants[r.finish] = r.variant;
  }
  return out;
}
