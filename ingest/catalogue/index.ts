// Imports the real catalogues in shared/data. 'small' is a few sets per game, for tests.
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { Logger } from '../../sql/runtime/log.js';
import { readFleshAndBloodCatalogue } from './fleshAndBlood.js';
import { readLorcanaCatalogue } from './lorcana.js';
import { readPokemonCatalogue } from './pokemon.js';
import { readScryfallCatalogue } from './scryfall.js';
import type { CatalogueBatch } from './model.js';
import { importSealedProducts } from './sealed.js';
import { upsertCatalogue, type UpsertSummary } from './upsert.js';

export type CatalogueScope = 'full' | 'small';

export const SMALL_POKEMON_SETS = new Set(['base1', 'sv3pt5', 'swsh45']);
export const SMALL_FAB_SETS = new Set(['WTR']);

export async function importCatalogues(
  pool: pg.Pool,
  dataDir: string,
  scope: CatalogueScope,
  log: Logger,
  onGame: (game: string) => void = () => undefined,
): Promise<UpsertSummary[]> {
  const small = scope === 'small';
  const readers: [string, (dir: string) => Promise<CatalogueBatch>][] = [
    ['pokemon-tcg-data', (dir) => readPokemonCatalogue(dir, small ? SMALL_POKEMON_SETS : undefined)],
    ['flesh-and-blood', (dir) => readFleshAndBloodCatalogue(dir, small ? SMALL_FAB_SETS : undefined)],
    ['lorcana-lorcanajson', (dir) => readLorcanaCatalogue(dir)],
    [path.join('prices', 'scryfall', 'mtg_ssm'), (dir) => readScryfallCatalogue(dir)],
  ];
  const out: UpsertSummary[] = [];
  for (const [folder, read] of readers) {
    const dir = path.join(dataDir, folder);
    // An upstream that is not mirrored here is skipped; what it imported before stays.
    if (!fs.existsSync(dir)) {
      log.warn('catalogue source missing, skipped', { dir });
      continue;
    }
    const batch = await read(dir);
    const summary = await upsertCatalogue(pool, batch, `catalogue sync: ${folder}`);
    log.info('catalogue imported', summary);
    onGame(summary.game);
    out.push(summary);
  }
  const sealed = await importSealedProducts(pool, dataDir);
  if (sealed) log.info('sealed products imported', sealed);
  return out;
}
