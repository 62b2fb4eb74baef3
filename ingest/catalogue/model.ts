// The neutral shape every catalogue importer produces from its upstream format.
import { CalendarDay } from '../sources/types.js';

export type CrossRefKey =
  'eu_marketplace_product_id' | 'us_marketplace_product_id' | 'price_guide_id' | 'mtg_dataset_uuid' | 'mtg_card_db_id' | 'ygo_card_db_id';

/** Ids other services give a variant (variant_external_ids), logged when they change. */
export type ExternalIdKind = 'cardmarket_product' | 'tcgplayer_product' | 'tcgplayer_sku' | 'price_guide' | 'scryfall' | 'pokemontcg_io';
export type ExternalIds = Partial<Record<ExternalIdKind, string>>;

export type GameInput = {
  slug: string;
  name: string;
  publisher: string;
  websiteUrl: string;
  description: string;
};

export type SetInput = {
  externalKey: string;
  code: string;
  name: string;
  series: string | null;
  releaseDate: string | null; // YYYY-MM-DD
  totalCards: number;
  printedTotal: number | null;
  isPromo: boolean;
  language: string;
  logoUrl: string | null;
  symbolUrl: string | null;
  /** What the upstream says beyond the columns (pokemontcg.io: legalities). */
  attributes?: Record<string, unknown>;
};

export type VariantInput = {
  externalKey: string;
  finish: string;
  variantLabel: string;
  printRarity: string | null;
  isEx: boolean | null;
  isV: boolean | null;
  imageUrl: string | null;
  /** The variant's own ids; they win over the card's. */
  externalIds?: ExternalIds;
};

export type PrintingInput = {
  externalKey: string;
  language: string;
  printRun: string;
  collectorNumber: string;
  isPromo: boolean;
  variants: VariantInput[];
  crossRefs: { key: CrossRefKey; value: string }[];
};

export type ImageInput = { source: string; kind: 'small' | 'large'; url: string; width: number; height: number };

export type CardInput = {
  externalKey: string;
  setExternalKey: string;
  name: string;
  collectorNumber: string;
  rarity: string | null;
  cardType: string | null;
  subtypes: string[];
  artist: string | null;
  attributes: Record<string, unknown>;
  legalities: Record<string, string>;
  images: ImageInput[];
  crossRefs: { key: CrossRefKey; value: string }[];
  /** Ids that hold for every variant of the card. */
  externalIds?: ExternalIds;
  printings: PrintingInput[];
};

export type CatalogueBatch = { game: GameInput; sets: SetInput[]; cards: CardInput[] };

/**
 * A release date as YYYY-MM-DD, from upstream dates written YYYY/MM/DD or YYYY-MM-DD, alone or
 * leading a timestamp (T or a space after it: pokemontcg.io writes `2024/02/21 10:04:00`). Only the
 * day matters; zod decides whether it is a calendar day (no 2024-13-45, no 2023-02-29), and year
 * 0000, which PostgreSQL's date has not, is refused too: anything else is null, an unknown release
 * date, rather than a failed catalogue write or a day that never was.
 */
export function isoDate(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const leading = /^\s*(\d{4})[-/](\d{2})[-/](\d{2})(?:$|[Tt ])/.exec(v);
  if (!leading) return null;
  const day = `${leading[1]}-${leading[2]}-${leading[3]}`;
  return CalendarDay.safeParse(day).success && leading[1] !== '0000' ? day : null;
}

/** A variant of a game without Pokémon's ex/V flags or variant-specific art. */
export function plainVariant(externalKey: string, finish: string, variantLabel: string, printRarity: string | null): VariantInput {
  return { externalKey, finish, variantLabel, printRarity, isEx: null, isV: null, imageUrl: null };
}
