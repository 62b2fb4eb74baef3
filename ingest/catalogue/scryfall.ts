// Magic: The Gathering from Scryfall card and set objects (the sample in shared/data is a subset).
import fs from 'node:fs/promises';
import path from 'node:path';
import { isoDate, plainVariant, type CardInput, type CatalogueBatch, type GameInput, type SetInput } from './model.js';

export type ScryfallCard = {
  id: string;
  oracle_id?: string;
  name: string;
  set: string;
  set_name: string;
  collector_number: string;
  rarity?: string;
  finishes?: string[];
  lang?: string;
  released_at?: string;
  type_line?: string;
  artist?: string;
  legalities?: Record<string, string>;
  tcgplayer_id?: number;
  cardmarket_id?: number;
  mana_cost?: string;
  oracle_text?: string;
  image_uris?: { small?: string; large?: string };
};
export type ScryfallSet = {
  code: string;
  name: string;
  released_at?: string;
  card_count?: number;
  set_type?: string;
  icon_svg_uri?: string;
};

const FINISH: Record<string, [string, string]> = {
  nonfoil: ['normal', 'Normal'],
  foil: ['foil', 'Foil'],
  etched: ['etched', 'Etched Foil'],
};

export const MTG_GAME: GameInput = {
  slug: 'mtg',
  name: 'Magic: The Gathering',
  publisher: 'Wizards of the Coast',
  websiteUrl: 'https://magic.wizards.com',
  description: 'Magic: The Gathering, the trading card game by Wizards of the Coast.',
};

export function scryfallSet(s: ScryfallSet): SetInput {
  return {
    externalKey: `scryfall:${s.code}`,
    code: s.code.toUpperCase(),
    name: s.name,
    series: s.set_type ?? null,
    releaseDate: isoDate(s.released_at),
    totalCards: s.card_count ?? 0,
    printedTotal: null,
    isPromo: s.set_type === 'promo',
    language: 'en',
    logoUrl: null,
    symbolUrl: s.icon_svg_uri ?? null,
  };
}

export function scryfallCard(c: ScryfallCard): CardInput {
  const lang = c.lang ?? 'en';
  const refs: CardInput['crossRefs'] = [{ key: 'mtg_card_db_id', value: c.id }];
  if (c.cardmarket_id) refs.push({ key: 'eu_marketplace_product_id', value: String(c.cardmarket_id) });
  if (c.tcgplayer_id) refs.push({ key: 'us_marketplace_product_id', value: String(c.tcgplayer_id) });
  return {
    externalKey: `scryfall:${c.id}`,
    setExternalKey: `scryfall:${c.set}`,
    name: c.name,
    collectorNumber: c.collector_number,
    rarity: c.rarity ?? null,
    cardType: c.type_line ?? null,
    subtypes: [],
    artist: c.artist ?? null,
    attributes: { oracle_id: c.oracle_id ?? null, mana_cost: c.mana_cost ?? null, oracle_text: c.oracle_text ?? null },
    legalities: c.legalities ?? {},
    images: [
      ...(c.image_uris?.small ? [{ source: 'scryfall', kind: 'small' as const, url: c.image_uris.small, width: 146, height: 204 }] : []),
      ...(c.image_uris?.large ? [{ source: 'scryfall', kind: 'large' as const, url: c.image_uris.large, width: 672, height: 936 }] : []),
    ],
    crossRefs: refs,
    externalIds: {
      scryfall: c.id,
      ...(c.cardmarket_id ? { cardmarket_product: String(c.cardmarket_id) } : {}),
      ...(c.tcgplayer_id ? { tcgplayer_product: String(c.tcgplayer_id) } : {}),
    },
    printings: [
      {
        externalKey: `scryfall:${c.id}:${lang}`,
        language: lang,
        printRun: 'unlimited',
        collectorNumber: c.collector_number,
        isPromo: false,
        crossRefs: [],
        variants: (c.finishes ?? ['nonfoil']).map((f) =>
          plainVariant(`scryfall:${c.id}:${lang}:${f}`, FINISH[f]?.[0] ?? f, FINISH[f]?.[1] ?? f, c.rarity ?? null),
        ),
      },
    ],
  };
}

/** The cards and the sets they are in, of those whose set is known. */
export function scryfallBatch(cardsRaw: ScryfallCard[], setsRaw: ScryfallSet[]): CatalogueBatch {
  const known = new Set(setsRaw.map((s) => s.code));
  const cards = cardsRaw.filter((c) => known.has(c.set));
  const used = new Set(cards.map((c) => c.set));
  return { game: MTG_GAME, sets: setsRaw.filter((s) => used.has(s.code)).map(scryfallSet), cards: cards.map(scryfallCard) };
}

/** The offline seed: a sample of Scryfall card objects and its /sets list. */
export async function readScryfallCatalogue(root: string): Promise<CatalogueBatch> {
  const cardsRaw = JSON.parse(await fs.readFile(path.join(root, 'cards.json'), 'utf8')) as ScryfallCard[];
  const setsRaw = (JSON.parse(await fs.readFile(path.join(root, 'sets.json'), 'utf8')) as { data: ScryfallSet[] }).data;
  return scryfallBatch(cardsRaw, setsRaw);
}
