// Imports the real catalogues in shared/data. 'small' is a few sets per game, for tests.
import path from 'node:path';
import type pg from 'pg';
import type { Logger } from '../../api/core/log.js';
import { readFleshAndBloodCatalogue } from './fleshAndBlood.js';
import { readLorcanaCatalogue } from './lorcana.js';
import { readPokemonCatalogue } from './pokemon.js';
import { readScryfallCatalogue } from './scryfall.js';
import { upsertCatalogue, type UpsertSummary } from './upsert.js';

export type CatalogueScope = 'full' | 'small';

export const SMALL_POKEMON_SETS = new Set(['base1', 'sv3pt5', 'swsh45']);
export const SMALL_FAB_SETS = new Set(['WTR']);

export async function importCatalogues(pool: pg.Pool, dataDir: string, scope: CatalogueScope, log: Logger): Promise<UpsertSummary[]> {
  const small = scope === 'small';
  const readers = [
    () => readPokemonCatalogue(path.join(dataDir, 'pokemon-tcg-data'), small ? SMALL_POKEMON_SETS : undefined),
    () => readFleshAndBloodCatalogue(path.join(dataDir, 'flesh-and-blood'), small ? SMALL_FAB_SETS : undefined),
    () => readLorcanaCatalogue(path.join(dataDir, 'lorcana-lorcanajson')),
    () => readScryfallCatalogue(path.join(dataDir, 'prices', 'scryfall', 'mtg_ssm')),
  ];
  const out: UpsertSummary[] = [];
  for (const read of readers) {
    const batch = await read();
    const summary = await upsertCatalogue(pool, batch);
    log.info('catalogue imported', summary);
    out.push(summary);
  }
  return out;
}
