// Disney Lorcana from LorcanaJSON 1.x set files. Every card has a normal and a cold-foil printing,
// except Enchanted cards, which exist only in foil.
import fs from 'node:fs/promises';
import path from 'node:path';
import { isoDate, plainVariant, type CardInput, type CatalogueBatch, type SetInput } from './model.js';

type LorcanaCard = {
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
type LorcanaSet = { code: string; name: string; releaseDate?: string; cards: LorcanaCard[] };

export async function readLorcanaCatalogue(root: string): Promise<CatalogueBatch> {
  const files = (await fs.readdir(root)).filter((f) => /^setdata\.\d+\.json$/.test(f)).sort();
  const sets: SetInput[] = [];
  const cards: CardInput[] = [];
  for (const f of files) {
    const setNumber = /setdata\.(\d+)\.json/.exec(f)![1]!;
    const s = JSON.parse(await fs.readFile(path.join(root, f), 'utf8')) as LorcanaSet;
    sets.push({
      externalKey: `lorcanajson:${setNumber}`,
      code: s.code,
      name: s.name,
      series: null,
      releaseDate: isoDate(s.releaseDate),
      totalCards: s.cards.length,
      printedTotal: s.cards.filter((c) => c.rarity !== 'Enchanted').length,
      isPromo: false,
      language: 'en',
      logoUrl: null,
      symbolUrl: null,
    });
    for (const c of s.cards) {
      const enchanted = c.rarity === 'Enchanted';
      const finishes = enchanted
        ? [['foil', 'Cold Foil']]
        : [
            ['normal', 'Normal'],
            ['foil', 'Cold Foil'],
          ];
      cards.push({
        externalKey: `lorcanajson:${c.id}`,
        setExternalKey: `lorcanajson:${setNumber}`,
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
      });
    }
  }
  return {
    game: {
      slug: 'lorcana',
      name: 'Disney Lorcana',
      publisher: 'Ravensburger',
      websiteUrl: 'https://www.disneylorcana.com',
      description: 'Disney Lorcana, the trading card game by Ravensburger.',
    },
    sets,
    cards,
  };
}
