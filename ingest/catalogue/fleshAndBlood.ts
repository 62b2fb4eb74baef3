// Flesh and Blood catalogue from the-fab-cube/flesh-and-blood-cards format (tab-separated CSVs).
// A card is one collector number in one set; a printing is an edition (and art variation) of it;
// a variant is one foiling of that printing, keyed by the upstream printing row's Unique ID.
import path from 'node:path';
import fs from 'node:fs/promises';
import { isoDate, type CardInput, type CatalogueBatch, type SetInput } from './model.js';
import { readDelimited } from './tsv.js';

const EDITION: Record<string, string> = { A: 'alpha', F: '1st-edition', U: 'unlimited', N: 'unlimited' };
const FOILING: Record<string, { finish: string; label: string }> = {
  S: { finish: 'normal', label: 'Standard' },
  R: { finish: 'rainbow-foil', label: 'Rainbow Foil' },
  C: { finish: 'cold-foil', label: 'Cold Foil' },
  G: { finish: 'gold-cold-foil', label: 'Gold Cold Foil' },
};
const RARITY: Record<string, string> = {
  C: 'Common',
  R: 'Rare',
  S: 'Super Rare',
  M: 'Majestic',
  L: 'Legendary',
  F: 'Fabled',
  T: 'Token',
  B: 'Basic',
  V: 'Marvel',
  P: 'Promo',
};

export type FabSet = {
  unique_id: string;
  id: string;
  name: string;
  printings: { initial_release_date?: string | null; set_logo?: string | null }[];
};

/** The offline seed: the repository's files (`only`: those sets). */
export async function readFleshAndBloodCatalogue(root: string, only?: Set<string>): Promise<CatalogueBatch> {
  const setJson = JSON.parse(await fs.readFile(path.join(root, 'json', 'english', 'set.json'), 'utf8')) as FabSet[];
  const cardRows = await readDelimited(path.join(root, 'csvs', 'english', 'card.csv'), '\t');
  const printingRows = await readDelimited(path.join(root, 'csvs', 'english', 'card-printing.csv'), '\t');
  return fleshAndBloodBatch(setJson, cardRows, printingRows, only);
}

/** set.json, card.csv and card-printing.csv (rows keyed by their header's names) as a catalogue. */
export function fleshAndBloodBatch(
  setJson: FabSet[],
  cardRows: Record<string, string>[],
  printingRows: Record<string, string>[],
  only?: Set<string>,
): CatalogueBatch {
  const cardById = new Map(cardRows.map((r) => [r['Unique ID']!, r]));

  // Several upstream sets share an identifier (e.g. a Black Label reprint): the first one names it.
  const sets = new Map<string, FabSet>();
  for (const s of setJson) if (!sets.has(s.id)) sets.set(s.id, s);

  const cards = new Map<string, CardInput>();
  const counts = new Map<string, number>();
  for (const row of printingRows) {
    const setId = row['Set ID']!;
    if (!sets.has(setId) || (only && !only.has(setId))) continue;
    const cardNumber = row['Card ID']!;
    const key = `fabcube:${setId}:${cardNumber}`;
    const base = cardById.get(row['Card Unique ID']!);
    let card = cards.get(key);
    if (!card) {
      counts.set(setId, (counts.get(setId) ?? 0) + 1);
      card = {
        externalKey: key,
        setExternalKey: `fabcube:${setId}`,
        name: row['Card Name'] || base?.['Name'] || cardNumber,
        collectorNumber: cardNumber,
        rarity: RARITY[row['Rarity']!] ?? row['Rarity'] ?? null,
        cardType: base?.['Type Text'] || null,
        subtypes: (base?.['Types'] ?? '')
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean),
        artist: row['Artists'] || null,
        attributes: {
          upstream_card_id: row['Card Unique ID'],
          pitch: base?.['Pitch'] || null,
          color: base?.['Color'] || null,
          cost: base?.['Cost'] || null,
          power: base?.['Power'] || null,
          defense: base?.['Defense'] || null,
          functional_text: base?.['Functional Text'] || null,
        },
        legalities: legalities(base),
        images: row['Image URL'] ? [{ source: 'fabtcg', kind: 'large', url: row['Image URL'], width: 450, height: 628 }] : [],
        crossRefs: [],
        printings: [],
      };
      cards.set(key, card);
    }
    const run = EDITION[row['Edition']!] ?? 'unlimited';
    const art = row['Art Variations'] ? row['Art Variations'].replace(/\s+/g, '') : '';
    const printingKey = `${key}:${run}${art ? ':' + art : ''}`;
    let printing = card.printings.find((p) => p.externalKey === printingKey);
    if (!printing) {
      printing = {
        externalKey: printingKey,
        language: 'en',
        printRun: run,
        collectorNumber: cardNumber,
        isPromo: row['Rarity'] === 'P',
        variants: [],
        crossRefs: [],
      };
      card.printings.push(printing);
    }
    const foil = FOILING[row['Foiling']!] ?? FOILING.S!;
    printing.variants.push({
      externalKey: `fabcube:${row['Unique ID']}`,
      finish: foil.finish,
      variantLabel: [run === 'unlimited' ? '' : run === '1st-edition' ? '1st Edition' : 'Alpha', foil.label, art].filter(Boolean).join(' '),
      printRarity: RARITY[row['Rarity']!] ?? null,
      isEx: null,
      isV: null,
      imageUrl: row['Image URL'] || null,
      ...(row['TCGPlayer ID'] ? { externalIds: { tcgplayer_product: row['TCGPlayer ID'] } } : {}),
    });
    const tcgId = row['TCGPlayer ID'];
    if (tcgId && !printing.crossRefs.some((r) => r.value === tcgId))
      printing.crossRefs.push({ key: 'us_marketplace_product_id', value: tcgId });
  }

  const setInputs: SetInput[] = [...sets.values()]
    .filter((s) => counts.has(s.id))
    .map((s) => ({
      externalKey: `fabcube:${s.id}`,
      code: s.id,
      name: s.name,
      series: null,
      releaseDate: isoDate(s.printings[0]?.initial_release_date ?? null),
      totalCards: counts.get(s.id) ?? 0,
      printedTotal: null,
      isPromo: /promo/i.test(s.name),
      language: 'en',
      logoUrl: s.printings[0]?.set_logo ?? null,
      symbolUrl: null,
    }));
  return {
    game: {
      slug: 'flesh-and-blood',
      name: 'Flesh and Blood',
      publisher: 'Legend Story Studios',
      websiteUrl: 'https://fabtcg.com',
      description: 'Flesh and Blood, the trading card game by Legend Story Studios.',
    },
    sets: setInputs,
    cards: [...cards.values()],
  };
}

function legalities(base: Record<string, string> | undefined): Record<string, string> {
  if (!base) return {};
  const out: Record<string, string> = {};
  for (const [col, name] of [
    ['Blitz Legal', 'blitz'],
    ['CC Legal', 'classic_constructed'],
    ['Commoner Legal', 'commoner'],
    ['LL Legal', 'living_legend'],
  ] as const) {
    const v = base[col];
    if (v) out[name] = /^(yes|true)$/i.test(v) ? 'Legal' : 'Not Legal';
  }
  return out;
}
