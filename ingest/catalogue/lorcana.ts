// Disney Lorcana from LorcanaJSON 1.x set files. Every card has a normal and a cold-foil printing,
// except Enchanted cards, which exist only in foil.
import fs from 'node:fs/promises';
import path from 'node:path';
import { isoDate, plainVariant, type CardInput, type CatalogueBatch, type GameInput, type SetInput } from './model.js';

export type LorcanaCard = {
  id: number;
  number: number;
  fullName: string;
  type?: string;
  rarity?: string;
  artist?: string;
  color?: string;
  cost?: number;
  inkwell?: boolean;
  lore?: number;
  strength?: number;
  willpower?: number;
  subtypes?: string[];
  fullText?: string;
  flavorText?: string;
  enchantedId?: number;
  nonEnchantedId?: number;
  images?: { full?: string; thumbnail?: string };
};
/** A set as LorcanaJSON describes it (allCards.json's `sets` entries; set files add `code` and `cards`). */
export type LorcanaSetInfo = { code?: string; name: string; releaseDate?: string };
type LorcanaSetFile = LorcanaSetInfo & { cards: LorcanaCard[] };

export const LORCANA_GAME: GameInput = {
  slug: 'lorcana',
  name: 'Disney Lorcana',
  publisher: 'Ravensburger',
  websiteUrl: 'https://www.disneylorcana.com',
  description: 'Disney Lorcana, the trading card game by Ravensburger.',
};

/** A set under its LorcanaJSON set code ("1", "2", …), with the cards of it. */
export function lorcanaSet(setCode: string, s: LorcanaSetInfo, cards: LorcanaCard[]): SetInput {
  return {
    externalKey: `lorcanajson:${setCode}`,
    code: s.code ?? setCode,
    name: s.name,
    series: null,
    releaseDate: isoDate(s.releaseDate),
    totalCards: cards.length,
    printedTotal: cards.filter((c) => c.rarity !== 'Enchanted').length,
    isPromo: false,
    language: 'en',
    logoUrl: null,
    symbolUrl: null,
  };
}

export function lorcanaCard(setCode: string, c: LorcanaCard): CardInput {
  const enchanted = c.rarity === 'Enchanted';
  const finishes = enchanted
    ? [['foil', 'Cold Foil']]
    : [
        ['normal', 'Normal'],
        ['foil', 'Cold Foil'],
      ];
  return {
    externalKey: `lorcanajson:${c.id}`,
    setExternalKey: `lorcanajson:${setCode}`,
    name: c.fullName,
    collectorNumber: String(c.number),
    rarity: c.rarity ?? null,
    cardType: c.type ?? null,
    subtypes: c.subtypes ?? [],
    artist: c.artist ?? null,
    attributes: {
      upstream_id: c.id,
      color: c.color ?? null,
      cost: c.cost ?? null,
      inkwell: c.inkwell ?? null,
      lore: c.lore ?? null,
      strength: c.strength ?? null,
      willpower: c.willpower ?? null,
      text: c.fullText ?? null,
      flavor_text: c.flavorText ?? null,
      enchanted_id: c.enchantedId ?? null,
      non_enchanted_id: c.nonEnchantedId ?? null,
    },
    legalities: {},
    images: [
      ...(c.images?.thumbnail
        ? [{ source: 'ravensburger', kind: 'small' as const, url: c.images.thumbnail, width: 367, height: 512 }]
        : []),
      ...(c.images?.full ? [{ source: 'ravensburger', kind: 'large' as const, url: c.images.full, width: 1468, height: 2048 }] : []),
    ],
    crossRefs: [],
    printings: [
      {
        externalKey: `lorcanajson:${c.id}:en:unlimited`,
        language: 'en',
        printRun: 'unlimited',
        collectorNumber: String(c.number),
        isPromo: false,
        crossRefs: [],
        variants: finishes.map(([finish, label]) =>
          plainVariant(`lorcanajson:${c.id}:en:unlimited:${finish}`, finish!, label!, c.rarity ?? null),
        ),
      },
    ],
  };
}

/** The offline seed: LorcanaJSON set files (setdata.<set code>.json, each a set with its cards). */
export async function readLorcanaCatalogue(root: string): Promise<CatalogueBatch> {
  const files = (await fs.readdir(root)).filter((f) => /^setdata\.\d+\.json$/.test(f)).sort();
  const sets: SetInput[] = [];
  const cards: CardInput[] = [];
  for (const f of files) {
    const setCode = /setdata\.(\d+)\.json/.exec(f)![1]!;
    const s = JSON.parse(await fs.readFile(path.join(root, f), 'utf8')) as LorcanaSetFile;
    sets.push(lorcanaSet(setCode, s, s.cards));
    for (const c of s.cards) cards.push(lorcanaCard(setCode, c));
  }
  return { game: LORCANA_GAME, sets, cards };
}
