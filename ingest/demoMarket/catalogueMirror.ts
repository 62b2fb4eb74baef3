// The catalogue side of the local upstream mirror: the upstreams' catalogue paths, answered from
// the files in shared/data (the same bytes those upstreams published), so catalogueSync runs its
// production connectors against it. The small demo's mirror serves the small demo's sets; a test
// may add sets (`extraPokemonSets`) to stand for a set released upstream.
//   GET /v2/sets?page&pageSize, /v2/cards?q=set.id:<id>&page&pageSize   pokemontcg.io (cards with their `set`)
//   GET /sets                                                             Scryfall's set list
//   GET /files/current/en/allCards.json                                   LorcanaJSON (its sets and cards)
//   GET /the-fab-cube/flesh-and-blood-cards/main/{json/english/set.json, csvs/english/card.csv, card-printing.csv}
import fs from 'node:fs/promises';
import path from 'node:path';
import { SMALL_FAB_SETS, SMALL_POKEMON_SETS } from '../catalogue/index.js';
import { FABCUBE_REPO, LORCANAJSON_ALL_CARDS } from '../catalogue/upstreams.js';
import { POKEMONTCG_PAGE_SIZE } from '../upstreams/pokemontcg.js';

export type CatalogueMirrorOptions = {
  /** The shared data folder the catalogue files are read from. */
  dataDir: string;
  scope: 'full' | 'small';
  /** Pokémon sets served beyond the scope's (a set "released upstream", in tests). */
  extraPokemonSets?: string[];
};

/** The demo's catalogue files and scope, which the mirror serves. */
export const mirrorCatalogue = (config: { sharedDataDir: string; demo: string }): CatalogueMirrorOptions => ({
  dataDir: config.sharedDataDir,
  scope: config.demo === 'small' ? 'small' : 'full',
});

export type CatalogueAnswer = { status: number; type: string; body: string | Buffer; document?: boolean };

const json = (status: number, doc: unknown): CatalogueAnswer => ({ status, type: 'application/json', body: JSON.stringify(doc) });

type Named = { id: string };

/** The catalogue paths of the mirror: an answer, or null for a path that is not one of them. */
export function catalogueMirror(opts: CatalogueMirrorOptions) {
  const file = (...parts: string[]) => path.join(opts.dataDir, ...parts);
  const readJson = async <T>(...parts: string[]) => JSON.parse(await fs.readFile(file(...parts), 'utf8')) as T;
  const pokemonWanted = opts.scope === 'small' ? new Set([...SMALL_POKEMON_SETS, ...(opts.extraPokemonSets ?? [])]) : null;
  const fabWanted = opts.scope === 'small' ? SMALL_FAB_SETS : null;

  const pokemonSets = async () =>
    (await readJson<Named[]>('pokemon-tcg-data', 'sets', 'en.json')).filter((s) => !pokemonWanted || pokemonWanted.has(s.id));

  /** pokemontcg.io's paging: page (from 1) of pageSize (at most 250), with count and totalCount. */
  const paged = (items: unknown[], url: URL) => {
    const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
    const pageSize = Math.min(POKEMONTCG_PAGE_SIZE, Math.max(1, Number(url.searchParams.get('pageSize') ?? POKEMONTCG_PAGE_SIZE) || 1));
    const data = items.slice((page - 1) * pageSize, page * pageSize);
    return json(200, { data, page, pageSize, count: data.length, totalCount: items.length });
  };

  return async function answer(url: URL): Promise<CatalogueAnswer | null> {
    const p = url.pathname;
    if (p === '/v2/sets') return paged(await pokemonSets(), url);
    const setQuery = p === '/v2/cards' ? /^set\.id:"?([\w.-]+)"?$/.exec(url.searchParams.get('q') ?? '') : null;
    if (setQuery) {
      const set = (await pokemonSets()).find((s) => s.id === setQuery[1]);
      if (!set) return paged([], url);
      const cards = await readJson<object[]>('pokemon-tcg-data', 'cards', 'en', `${set.id}.json`);
      // The live API states each card's set inside it.
      return paged(
        cards.map((c) => ({ ...c, set })),
        url,
      );
    }
    if (p === '/sets')
      return { status: 200, type: 'application/json', body: await fs.readFile(file('prices', 'scryfall', 'mtg_ssm', 'sets.json')) };
    if (p === LORCANAJSON_ALL_CARDS) {
      const dir = file('lorcana-lorcanajson');
      const names = (await fs.readdir(dir)).filter((f) => /^setdata\.\d+\.json$/.test(f)).sort();
      const sets: Record<string, unknown> = {};
      const cards: unknown[] = [];
      let metadata: unknown = null;
      for (const name of names) {
        const setCode = /setdata\.(\d+)\.json/.exec(name)![1]!;
        const {
          cards: setCards,
          metadata: m,
          ...set
        } = JSON.parse(await fs.readFile(path.join(dir, name), 'utf8')) as {
          cards: object[];
          metadata: unknown;
        };
        metadata = m;
        sets[setCode] = set;
        for (const c of setCards) cards.push({ ...c, setCode });
      }
      return { status: 200, type: 'application/json', body: JSON.stringify({ metadata, sets, cards }), document: true };
    }
    if (p.startsWith(`${FABCUBE_REPO}/`)) {
      const rel = p.slice(FABCUBE_REPO.length + 1);
      if (rel === 'json/english/set.json') {
        // The small demo's sets only; the importer reads printings of listed sets alone.
        const sets = (await readJson<Named[]>('flesh-and-blood', 'json', 'english', 'set.json')).filter(
          (s) => !fabWanted || fabWanted.has(s.id),
        );
        return { status: 200, type: 'text/plain; charset=utf-8', body: JSON.stringify(sets), document: true };
      }
      if (rel === 'csvs/english/card.csv' || rel === 'csvs/english/card-printing.csv')
        return { status: 200, type: 'text/plain; charset=utf-8', body: await fs.readFile(file('flesh-and-blood', rel)), document: true };
      return { status: 404, type: 'text/plain', body: '404: Not Found' };
    }
    return null;
  };
}

/** Scryfall card objects of the mirror's Magic catalogue, for its bulk file (prices are the demo's). */
export async function scryfallCatalogueCards(dataDir: string): Promise<({ id: string } & Record<string, unknown>)[]> {
  return JSON.parse(await fs.readFile(path.join(dataDir, 'prices', 'scryfall', 'mtg_ssm', 'cards.json'), 'utf8'));
}
