// Sealed products from Cardmarket's product export (products_nonsingles_<game>.json): booster
// boxes, boosters, starter decks, promo products. The demo carries the real Digimon export (the
// only sealed catalogue in shared/data), as the game `digimon`, and the real price guide's value
// of each product anchors its generated history.
import fs from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { pgTransaction } from '../../sql/stores/db.js';
import { ensureGame, upsertSealedProducts } from '../../sql/catalogueWrites.js';

type Product = { idProduct: number; name: string; categoryName: string; dateAdded?: string };
type Guide = { idProduct: number; trend?: number | null; avg?: number | null; low?: number | null };

export const DIGIMON = {
  slug: 'digimon',
  name: 'Digimon Card Game',
  publisher: 'Bandai',
  websiteUrl: 'https://world.digimoncard.com',
  description: 'The Digimon Card Game by Bandai.',
};

/** "Booster Box (BT1)" → BT1; "Tamer's Set 3 (PB-05)" → PB-05. */
export const setCodeOf = (name: string) => /\(([A-Z]{1,4}-?\d{1,3}(?:\.\d)?)\)\s*$/.exec(name)?.[1] ?? null;

export async function importSealedProducts(pool: pg.Pool, dataDir: string): Promise<{ game: string; products: number } | null> {
  const dir = path.join(dataDir, 'prices', 'cardmarket-digimon');
  let doc: { products?: Product[] };
  try {
    doc = JSON.parse(await fs.readFile(path.join(dir, 'products_nonsingles_17.json'), 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const products = (doc.products ?? []).filter((p) => Number.isInteger(p.idProduct) && typeof p.name === 'string');
  await pgTransaction(pool, async (client) => {
    const [game] = await ensureGame(client, DIGIMON.slug, DIGIMON.name, DIGIMON.publisher, DIGIMON.websiteUrl, DIGIMON.description);
    await upsertSealedProducts(
      client,
      game!.id,
      products.map((p) => `cardmarket:${p.idProduct}`),
      products.map((p) => p.name),
      products.map((p) => p.categoryName.replace(/^Digimon /, '')),
      products.map((p) => setCodeOf(p.name)),
      products.map((p) => String(p.idProduct)),
      products.map((p) => (p.dateAdded ? p.dateAdded.slice(0, 10) : null)),
    );
  });
  return { game: DIGIMON.slug, products: products.length };
}

/** Today's real guide value (EUR) of every sealed product the guide prices: trend, else avg. */
export async function sealedGuideValues(dataDir: string): Promise<Map<string, number>> {
  const file = path.join(dataDir, 'prices', 'cardmarket-digimon', 'price_guide_17.json');
  const doc = JSON.parse(await fs.readFile(file, 'utf8')) as { priceGuides?: Guide[] };
  const out = new Map<string, number>();
  for (const g of doc.priceGuides ?? []) {
    const value = g.trend || g.avg || g.low;
    if (typeof value === 'number' && value > 0) out.set(String(g.idProduct), value);
  }
  return out;
}
