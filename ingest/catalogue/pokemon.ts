// Pokémon TCG catalogue from the pokemon-tcg-data repository format (sets/en.json + cards/en/<set>.json).
// Those files carry no finishes and no marketplace ids, so printings and variants are derived from
// printing conventions (see README "Pokémon finishes").
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  isoDate,
  type CardInput,
  type CatalogueBatch,
  type GameInput,
  type PrintingInput,
  type SetInput,
  type VariantInput,
} from './model.js';

export type PtcgSet = {
  id: string;
  name: string;
  series?: string;
  printedTotal?: number;
  total?: number;
  releaseDate?: string;
  ptcgoCode?: string;
  legalities?: Record<string, string>;
  images?: { symbol?: string; logo?: string };
};
export type PtcgCard = {
  id: string;
  name: string;
  supertype?: string;
  subtypes?: string[];
  number: string;
  rarity?: string;
  artist?: string;
  hp?: string;
  types?: string[];
  evolvesFrom?: string;
  evolvesTo?: string[];
  attacks?: unknown[];
  abilities?: unknown[];
  weaknesses?: unknown[];
  resistances?: unknown[];
  retreatCost?: string[];
  rules?: string[];
  flavorText?: string;
  nationalPokedexNumbers?: number[];
  regulationMark?: string;
  legalities?: Record<string, string>;
  images?: { small?: string; large?: string };
};

// WotC-era sets printed a 1st Edition run beside Unlimited; Base Set also has the Shadowless run.
const FIRST_EDITION_SETS = new Set(['base1', 'base2', 'base3', 'base5', 'gym1', 'gym2', 'neo1', 'neo2', 'neo3', 'neo4']);
const SHADOWLESS_SETS = new Set(['base1']);
// Reverse holofoils start with Legendary Collection (2002) and are printed for the main-set rarities only.
const REVERSE_HOLO_FROM = '2002-05-24';
const REVERSE_HOLO_RARITIES = new Set(['Common', 'Uncommon', 'Rare', 'Rare Holo']);

export function pokemonFinishes(card: PtcgCard, set: PtcgSet): string[] {
  const rarity = card.rarity ?? '';
  const release = isoDate(set.releaseDate) ?? '';
  const isPromoSet = /promo/i.test(set.name) || rarity === 'Promo';
  const holo =
    /holo|ultra|secret|rainbow|illustration|shiny|double rare|hyper|radiant|amazing|prism|legend|ace|break|prime|star|gold|shining/i.test(
      rarity,
    ) ||
    (isPromoSet && /\b(EX|GX|V|VMAX|VSTAR|ex)\b/.test(card.name));
  const finishes = [holo ? 'holofoil' : 'normal'];
  if (!isPromoSet && release >= REVERSE_HOLO_FROM && REVERSE_HOLO_RARITIES.has(rarity) && card.supertype !== 'Energy') {
    finishes.push('reverse-holofoil');
  }
  return finishes;
}

const FINISH_LABEL: Record<string, string> = { normal: 'Normal', holofoil: 'Holofoil', 'reverse-holofoil': 'Reverse Holofoil' };
const RUN_LABEL: Record<string, string> = { unlimited: '', '1st-edition': '1st Edition ', shadowless: 'Shadowless ' };

export const POKEMON_GAME: GameInput = {
  slug: 'pokemon',
  name: 'Pokémon',
  publisher: 'The Pokémon Company',
  websiteUrl: 'https://www.pokemon.com/us/pokemon-tcg',
  description: 'The Pokémon Trading Card Game.',
};

export function pokemonSet(s: PtcgSet): SetInput {
  return {
    externalKey: `pokemontcg:${s.id}`,
    code: s.ptcgoCode ?? s.id.toUpperCase(),
    name: s.name,
    series: s.series ?? null,
    releaseDate: isoDate(s.releaseDate),
    totalCards: s.total ?? 0,
    printedTotal: s.printedTotal ?? null,
    isPromo: /promo/i.test(s.name),
    language: 'en',
    logoUrl: s.images?.logo ?? null,
    symbolUrl: s.images?.symbol ?? null,
    attributes: { legalities: s.legalities ?? {}, ...(s.ptcgoCode ? { ptcgoCode: s.ptcgoCode } : {}) },
  };
}

/** The offline seed: the pokemon-tcg-data repository's files (`only`: those sets). */
export async function readPokemonCatalogue(root: string, only?: Set<string>): Promise<CatalogueBatch> {
  const sets = JSON.parse(await fs.readFile(path.join(root, 'sets', 'en.json'), 'utf8')) as PtcgSet[];
  const wanted = sets.filter((s) => !only || only.has(s.id));
  const cards: CardInput[] = [];
  for (const s of wanted) {
    const raw = JSON.parse(await fs.readFile(path.join(root, 'cards', 'en', `${s.id}.json`), 'utf8')) as PtcgCard[];
    for (const c of raw) cards.push(pokemonCard(c, s));
  }
  return { game: POKEMON_GAME, sets: wanted.map(pokemonSet), cards };
}

export function pokemonCard(c: PtcgCard, s: PtcgSet): CardInput {
  const runs = ['unlimited'];
  if (FIRST_EDITION_SETS.has(s.id)) runs.unshift('1st-edition');
  if (SHADOWLESS_SETS.has(s.id)) runs.splice(1, 0, 'shadowless');
  const subtypes = c.subtypes ?? [];
  const isEx = subtypes.some((t) => t === 'EX' || t === 'ex') || / ex$/i.test(c.name);
  const isV = subtypes.some((t) => t === 'V' || t === 'VMAX' || t === 'VSTAR' || t === 'V-UNION');
  const finishes = pokemonFinishes(c, s);
  const isPromo = /promo/i.test(s.name) || c.rarity === 'Promo';
  const printings: PrintingInput[] = runs.map((run) => ({
    externalKey: `pokemontcg:${c.id}:en:${run}`,
    language: 'en',
    printRun: run,
    collectorNumber: c.number,
    isPromo,
    crossRefs: [],
    variants: finishes.map((finish): VariantInput => ({
      externalKey: `pokemontcg:${c.id}:en:${run}:${finish}`,
      finish,
      variantLabel: `${RUN_LABEL[run]}${FINISH_LABEL[finish]}`.trim(),
      printRarity: c.rarity ?? null,
      isEx,
      isV,
      imageUrl: null,
    })),
  }));
  const { id: _id, name: _n, number: _num, rarity: _r, artist: _a, legalities, images, subtypes: _s, supertype, ...attributes } = c;
  return {
    externalKey: `pokemontcg:${c.id}`,
    setExternalKey: `pokemontcg:${s.id}`,
    name: c.name,
    collectorNumber: c.number,
    rarity: c.rarity ?? null,
    cardType: supertype ?? null,
    subtypes,
    artist: c.artist ?? null,
    attributes: { upstream_id: c.id, ...attributes },
    legalities: legalities ?? {},
    images: [
      ...(images?.small ? [{ source: 'pokemontcg.io', kind: 'small' as const, url: images.small, width: 245, height: 342 }] : []),
      ...(images?.large ? [{ source: 'pokemontcg.io', kind: 'large' as const, url: images.large, width: 734, height: 1024 }] : []),
    ],
    crossRefs: [],
    externalIds: { pokemontcg_io: c.id },
    printings,
  };
}
