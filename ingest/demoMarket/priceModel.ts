// The demo market's one price model, shared by the history backfill (evaluated inside ClickHouse
// by sql/clickhouse/queries/demo/generate_price_history.sql) and the live feed server (evaluated here):
// a series' price on a day is a pure function of what is staged for the series (its scale, seed,
// lag, noise width and its card's movement) and the day. Both evaluate the same operations in the
// same order on 32-bit integer hashes and IEEE doubles, so they agree to the cent (tested).
//
//   price = scale · exp(movement(day − lag)) · (1 + (u − ½) · noise_width) · outlier
//   scale = base(variant) · factor(price type) · bias(variant, source)
//   movement = drift · x/365 + a regime wave + a short wave + an event spike − a crash, x = days from MODEL_EPOCH
//   u = hash(seed xor day·φ) / 2³², the day's draw of the series; outlier: ×7 or ×1/7 for 2 in 1500 draws

import type { SourceRow } from '../sources/types.js';

const DAY_MS = 86_400_000;
export const dayNumber = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
/** Day 0 of the movement: the drift is anchored here, so the model does not depend on when it runs. */
export const MODEL_EPOCH = dayNumber('2026-01-01');

/** lowbias32 (a well-mixing 32-bit integer hash); the SQL generator spells out the same steps. */
export function hash32(x: number): number {
  x = (x ^ (x >>> 16)) >>> 0;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x = (x ^ (x >>> 15)) >>> 0;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

// Names hashed so far: series keys and source names, a few dozen, each asked for once per series.
const nameHashes = new Map<string, number>();

/** FNV-1a of a name (a series key or a source), for turning it into a hash input. */
function nameHash(name: string): number {
  let h = nameHashes.get(name);
  if (h === undefined) {
    h = 2166136261;
    for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619) >>> 0;
    nameHashes.set(name, h);
  }
  return h;
}

/** A uniform draw in [0, 1) fixed by an id and a salt. */
export const draw = (id: number, salt: number) => hash32((id ^ Math.imul(salt, 0x9e3779b1)) >>> 0) / 4294967296;

/** The day's draw of a series: the one hash the SQL generator computes per row. */
export const dayHash = (seed: number, day: number) => hash32((seed ^ Math.imul(day, 0x9e3779b1)) >>> 0);

/** How a card's price moves: shared by every variant and every source of the card. */
export type Movement = {
  drift: number;
  wave_amp: number;
  wave_period: number;
  wave_phase: number;
  spike_height: number;
  spike_day: number;
  crash_depth: number;
  crash_day: number;
};

/**
 * A card's movement, from its id: a yearly drift between −24 % and +36 %, a regime wave of 40 to
 * 200 days, for one card in 16 a spike after an event (a tournament win, a reprint announcement)
 * and for one in 80 a crash that stays (a ban, a big reprint).
 */
export function cardMovement(cardId: number): Movement {
  const u = (salt: number) => draw(cardId, salt);
  const spiky = u(5) < 1 / 16;
  const crashes = u(8) < 1 / 80;
  return {
    drift: (u(1) - 0.4) * 0.6,
    wave_amp: 0.03 + 0.1 * u(2),
    wave_period: 40 + 160 * u(3),
    wave_phase: 6.28 * u(4),
    spike_height: spiky ? 0.3 + 0.5 * u(6) : 0,
    spike_day: Math.floor(-60 + 760 * u(7)),
    crash_depth: crashes ? 0.4 + 0.6 * u(9) : 0,
    crash_day: Math.floor(-60 + 760 * u(10)),
  };
}

/** Log-price movement at x days from MODEL_EPOCH. */
export function movementAt(m: Movement, x: number): number {
  const zs = (x - m.spike_day) / 6;
  return (
    (m.drift * x) / 365 +
    m.wave_amp * Math.sin((2 * Math.PI * x) / m.wave_period + m.wave_phase) +
    0.03 * Math.sin((2 * Math.PI * x) / 9) +
    m.spike_height * Math.exp(-(zs * zs)) -
    m.crash_depth * Math.min(1, Math.max(0, (x - m.crash_day) / 5))
  );
}

/** What is staged per series: everything its price on any day depends on. */
export type SeriesQuote = {
  /** The card's movement, shared by reference with the card's other series. */
  movement: Movement;
  scale: number;
  seed: number;
  lag: number;
  noise_width: number;
  /** Auction sales: the series has a sale on a quarter of the days (see auctionOn), each its own observation. */
  auction: boolean;
};

/** 2 cents at least; planted outliers (×7, ×1/7) are 2 in 1500 of a series' days. */
export function quoteCents(q: SeriesQuote, day: number): number {
  const h = dayHash(q.seed, day);
  const u = h / 4294967296;
  const o = (h >>> 2) % 1500;
  const outlier = o === 0 ? 7 : o === 1 ? 1 / 7 : 1;
  const cents = Math.floor(
    q.scale * Math.exp(movementAt(q.movement, day - q.lag - MODEL_EPOCH)) * (1 + (u - 0.5) * q.noise_width) * outlier * 100 + 0.5,
  );
  return Math.max(2, cents);
}

export const quoteAmount = (q: SeriesQuote, day: number) => quoteCents(q, day) / 100;
export const isPlantedOutlier = (q: SeriesQuote, day: number) => (dayHash(q.seed, day) >>> 2) % 1500 < 2;
/** An auction series has a listing ending on a day when the draw's low bits are 0 (sold) or 1 (unsold). */
export const auctionOn = (q: SeriesQuote, day: number): 'sold' | 'unsold' | null => {
  const low = dayHash(q.seed, day) & 3;
  return low === 0 ? 'sold' : low === 1 ? 'unsold' : null;
};
/** The observation id of an auction sale: the listing's item id. */
export const auctionItemId = (q: SeriesQuote, day: number) => String(q.seed * 100000 + day);

// Typical raw NM price in USD by rarity keyword; unknown rarities price like commons.
const RARITY_BASE: [RegExp, number][] = [
  [/special illustration|hyper|gold|secret|rainbow|mega hyper|fabled|enchanted|mythic/i, 60],
  [/illustration|ultra|legend|shiny|vmax|vstar|gx|ex|majestic|legendary|marvel|amazing|radiant|prism|star/i, 14],
  [/holo|super rare|rare|double/i, 2.5],
  [/uncommon/i, 0.35],
  [/common|basic|token/i, 0.15],
];
// The names collectors chase cost a multiple of their rarity's usual price.
const POPULAR = /charizard|pikachu|mewtwo|umbreon|rayquaza|lugia|gengar|eevee|mew\b|elsa|mickey|stitch|black lotus|dragon|dorinthea|prism/i;

export type VariantFacts = {
  variant_id: number;
  card_name: string;
  rarity: string | null;
  finish: string;
  print_run: string;
  year: number | null;
};

/** A variant's raw NM value in USD at MODEL_EPOCH: rarity, popularity, finish, print run and era. */
export function baseUsd(v: VariantFacts): number {
  const r = v.rarity ?? 'common';
  let price = (RARITY_BASE.find(([re]) => re.test(r))?.[1] ?? 0.15) * Math.exp((draw(v.variant_id, 11) - 0.5) * 2.2);
  if (POPULAR.test(v.card_name)) price *= 3;
  if (v.finish !== 'normal') price *= v.finish === 'reverse-holofoil' ? 1.6 : 2.2;
  if (v.print_run === '1st-edition') price *= 4;
  if (v.print_run === 'shadowless') price *= 2.5;
  if (v.year !== null && v.year > 0 && v.year < 2005) price *= 3; // vintage premium
  return Math.round(price * 100) / 100 + 0.05;
}

/** A source's stable bias on a variant: marketplaces sit within about ±15 % of each other. */
export const sourceBias = (variantId: number, source: string) => 1 + (draw(variantId, nameHash(source)) - 0.5) * 0.15;

/** What names a series within a variant, as the feeds' adapters write it. */
export type SeriesKey = Pick<SourceRow, 'region' | 'source' | 'price_type' | 'grading_company' | 'grade' | 'currency'>;

/** Price relative to the market value, per series; EUR series carry the euro's typical rate. */
export type SeriesTerms = { factor: number; lag?: number; noise?: number; auction?: boolean };

/** What every series of a variant shares: its base value and its card's movement. */
export type VariantBasis = { variant_id: number; base: number; movement: Movement };
export const variantBasis = (v: VariantFacts & { card_id: number }): VariantBasis => ({
  variant_id: v.variant_id,
  base: baseUsd(v),
  movement: cardMovement(v.card_id),
});

/** A series' quote: the variant's base, the series' terms, the source's bias, the card's movement. */
export function seriesQuote(b: VariantBasis, key: SeriesKey, terms: SeriesTerms): SeriesQuote {
  const id = `${key.region}|${key.source}|${key.price_type}|${key.grading_company}|${key.grade}|${key.currency}`;
  return {
    movement: b.movement,
    scale: b.base * terms.factor * sourceBias(b.variant_id, key.source),
    seed: hash32((b.variant_id ^ nameHash(id)) >>> 0),
    lag: terms.lag ?? 0,
    noise_width: terms.noise ?? 0.06,
    auction: terms.auction ?? false,
  };
}

/** Raw NM copies that cost this much get slabbed: graded guides and auctions list them. */
export const GRADED_WORTHY_USD = 8;
