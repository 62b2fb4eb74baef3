// What each demo feed quotes: per upstream product, its fields, and for each field the variant the
// ingestion mapping will load it into (chosen by the mapping's own chooseVariant) with that
// series' price model quote. The feed server renders a day of a plan; the history backfill
// generates the same series' past inside ClickHouse. One plan, so every series continues from the
// backfill into live ingestion under the same source name, at the same level.
import type pg from 'pg';
import { chooseVariant } from '../normalise/mapVariants.js';
import { POKEMONTCG_FINISHES } from '../../schemas/pokemontcg.js';
import { PRICE_GUIDE_PRINT_RUNS } from '../sources/priceChartingCsv.js';
import { TCGPLAYER_SUBTYPES } from '../sources/tcgplayerPricing.js';
import { demoMarketRefs, demoMarketVariants, watchedCards, type MarketVariant } from '../../sql/demoMarket.js';
import {
  draw,
  GRADED_WORTHY_USD,
  seriesQuote,
  variantBasis,
  type SeriesKey,
  type SeriesQuote,
  type SeriesTerms,
  type VariantBasis,
} from './priceModel.js';

export type Planned = { variant: MarketVariant; key: SeriesKey; quote: SeriesQuote };
/** One upstream product: its id, the card it is, and its priced fields by path in the feed. */
export type PlannedProduct = { id: string; card: MarketVariant; fields: [path: string, planned: Planned][]; ambiguous?: boolean };

/** Euros per US dollar in the model's market levels (European prices are quoted in EUR). */
const EUR_PER_USD = 0.92;

const usRaw = (source: string, price_type: string): SeriesKey => ({
  region: 'us',
  source,
  price_type,
  grading_company: 'raw',
  grade: '',
  currency: 'USD',
});
const euRaw = (source: string, price_type: string): SeriesKey => ({
  region: 'eu',
  source,
  price_type,
  grading_company: 'raw',
  grade: '',
  currency: 'EUR',
});
const usGraded = (source: string, grading_company: string, grade: string, price_type = ''): SeriesKey => ({
  region: 'us',
  source,
  price_type,
  grading_company,
  grade,
  currency: 'USD',
});

// US marketplace price types relative to its market price.
const US_FIELDS: [field: string, price_type: string, factor: number][] = [
  ['low', 'low', 0.82],
  ['mid', 'mid', 1.06],
  ['high', 'high', 1.7],
  ['market', 'market', 1],
  ['directLow', 'direct_low', 0.95],
];
// European marketplace price guide: avg7 and avg30 are moving averages, so they lag the market.
const EU_FIELDS: [price_type: string, terms: SeriesTerms][] = [
  ['avg', { factor: 1.02 * EUR_PER_USD }],
  ['low', { factor: 0.74 * EUR_PER_USD }],
  ['trend', { factor: EUR_PER_USD }],
  ['avg1', { factor: EUR_PER_USD }],
  ['avg7', { factor: EUR_PER_USD, lag: 3 }],
  ['avg30', { factor: EUR_PER_USD, lag: 15 }],
];
// pokemontcg.io's names of the European guide's fields, plain and reverse holo.
const POKEMONTCG_EU_FIELDS: Record<string, [plain: string, reverse: string]> = {
  avg: ['averageSellPrice', 'reverseHoloSell'],
  low: ['lowPrice', 'reverseHoloLow'],
  trend: ['trendPrice', 'reverseHoloTrend'],
  avg1: ['avg1', 'reverseHoloAvg1'],
  avg7: ['avg7', 'reverseHoloAvg7'],
  avg30: ['avg30', 'reverseHoloAvg30'],
};
/** The graded guide's columns: a multiple of the raw price per company and grade, rising with the grade. */
export const PRICE_GUIDE_COLUMNS: [column: string, key: (source: string) => SeriesKey, factor: number][] = [
  ['loose-price', (s) => usRaw(s, 'raw_us'), 1],
  ['cib-price', (s) => usGraded(s, 'other', '7'), 1.3],
  ['new-price', (s) => usGraded(s, 'other', '8'), 1.7],
  ['graded-price', (s) => usGraded(s, 'other', '9'), 2.4],
  ['box-only-price', (s) => usGraded(s, 'other', '9.5'), 3.6],
  ['manual-only-price', (s) => usGraded(s, 'psa', '10'), 6.5],
  ['bgs-10-price', (s) => usGraded(s, 'bgs', '10'), 9],
  ['condition-17-price', (s) => usGraded(s, 'other', 'pc17'), 4.6],
  ['condition-18-price', (s) => usGraded(s, 'other', 'pc18'), 5.2],
];
/** Completed auctions of a watched card: one listing a day at most per grade, sold prices scattered. */
export const AUCTION_GRADES: [title: string, key: SeriesKey, terms: SeriesTerms][] = [
  ['Near Mint', usRaw('auction_sold', 'last_sold'), { factor: 0.98, noise: 0.25, auction: true }],
  ['PSA 10 GEM MINT', usGraded('auction_sold', 'psa', '10'), { factor: 6.5, noise: 0.2, auction: true }],
  ['PSA 9', usGraded('auction_sold', 'psa', '9'), { factor: 2.4, noise: 0.2, auction: true }],
  ['BGS 9.5 Gem Mint', usGraded('auction_sold', 'bgs', '9.5'), { factor: 4.2, noise: 0.2, auction: true }],
  ['CGC 9', usGraded('auction_sold', 'cgc', '9'), { factor: 2.0, noise: 0.2, auction: true }],
];
/**
 * Games whose price guide lists every card: Lorcana's catalogue carries no marketplace ids, so the
 * guide (linked by set name and number) is its one source; elsewhere it lists the cards worth grading.
 */
const GUIDE_LISTS_EVERY_CARD = new Set(['lorcana']);

/** A game's variants by card, in the order the ingestion mapping sees them. */
async function variantsByCard(pool: pg.Pool, game: string): Promise<Map<number, MarketVariant[]>> {
  const byCard = new Map<number, MarketVariant[]>();
  for (const v of await demoMarketVariants(pool, game)) {
    const list = byCard.get(v.card_id);
    if (list) list.push(v);
    else byCard.set(v.card_id, [v]);
  }
  return byCard;
}

// pokemontcg.io's TCGplayer price key of a variant (the parser's POKEMONTCG_FINISHES, read backwards).
const POKEMONTCG_KEY_1ST: Record<string, string> = { holofoil: '1stEditionHolofoil', normal: '1stEditionNormal' };
const POKEMONTCG_KEY: Record<string, string> = { normal: 'normal', holofoil: 'holofoil', 'reverse-holofoil': 'reverseHolofoil' };

// A variant's base and movement, computed once for all its series (a card has a dozen or more).
const bases = new WeakMap<MarketVariant, VariantBasis>();
function basisOf(v: MarketVariant): VariantBasis {
  let basis = bases.get(v);
  if (basis === undefined) {
    basis = variantBasis(v);
    bases.set(v, basis);
  }
  return basis;
}

const plan = (v: MarketVariant, key: SeriesKey, terms: SeriesTerms): Planned => ({
  variant: v,
  key,
  quote: seriesQuote(basisOf(v), key, terms),
});

async function pokemontcgPlan(pool: pg.Pool, game: string): Promise<PlannedProduct[]> {
  const byCard = await variantsByCard(pool, game);
  const products: PlannedProduct[] = [];
  for (const variants of byCard.values()) {
    const card = variants[0]!;
    if (!card.external_key.startsWith('pokemontcg:')) continue;
    const fields: [string, Planned][] = [];
    const keys = new Set<string>();
    for (const v of variants) {
      const key = (v.print_run === '1st-edition' ? POKEMONTCG_KEY_1ST : POKEMONTCG_KEY)[v.finish];
      if (key) keys.add(key);
    }
    for (const key of keys) {
      const { finish, printRun } = POKEMONTCG_FINISHES[key]!;
      const target = chooseVariant(variants, finish, printRun);
      if (!target) continue;
      for (const [field, priceType, factor] of US_FIELDS) {
        if (field === 'directLow' && draw(card.card_id, 21) >= 0.5) continue; // not every card has a direct seller
        fields.push([`tcgplayer.prices.${key}.${field}`, plan(target, usRaw('tcgplayer', priceType), { factor })]);
      }
    }
    const plain = chooseVariant(variants, null, null);
    const reverse = chooseVariant(variants, 'reverse-holofoil', null);
    for (const [priceType, terms] of EU_FIELDS) {
      const [plainField, reverseField] = POKEMONTCG_EU_FIELDS[priceType]!;
      if (plain) fields.push([`cardmarket.prices.${plainField}`, plan(plain, euRaw('cardmarket', priceType), terms)]);
      if (reverse) fields.push([`cardmarket.prices.${reverseField}`, plan(reverse, euRaw('cardmarket', priceType), terms)]);
    }
    products.push({ id: card.external_key.slice('pokemontcg:'.length), card, fields });
  }
  return products;
}

/** A game's references of one kind, each marked when it names several cards (the mapping refuses those). */
async function refsOf(pool: pg.Pool, game: string, kind: string) {
  const refs = await demoMarketRefs(pool, game, kind);
  const cards = new Map<string, Set<number>>();
  for (const r of refs) cards.set(r.ref_value, (cards.get(r.ref_value) ?? new Set()).add(r.card_id));
  return refs.map((r) => ({ ...r, ambiguous: cards.get(r.ref_value)!.size > 1 }));
}

/** The variants a cross reference can name: its printing's, or the whole card's. */
function candidates(byCard: Map<number, MarketVariant[]>, cardId: number, printingId: number | null): MarketVariant[] {
  const variants = byCard.get(cardId) ?? [];
  return printingId === null ? variants : variants.filter((v) => v.printing_id === printingId);
}

const TCGPLAYER_SUBTYPE_OF: Record<string, string> = {
  normal: 'Normal',
  'rainbow-foil': 'Rainbow Foil',
  'cold-foil': 'Cold Foil',
  'gold-cold-foil': 'Gold Cold Foil',
  foil: 'Foil',
};

async function tcgplayerPlan(pool: pg.Pool, game: string): Promise<PlannedProduct[]> {
  const byCard = await variantsByCard(pool, game);
  const products: PlannedProduct[] = [];
  const seen = new Set<string>();
  for (const ref of await refsOf(pool, game, 'us_marketplace_product_id')) {
    const variants = candidates(byCard, ref.card_id, ref.printing_id);
    for (const v of variants) {
      const sub = v.print_run === '1st-edition' && v.finish === 'normal' ? '1st Edition' : (TCGPLAYER_SUBTYPE_OF[v.finish] ?? 'Normal');
      if (seen.has(`${ref.ref_value}|${sub}`)) continue;
      seen.add(`${ref.ref_value}|${sub}`);
      const { finish, printRun } = TCGPLAYER_SUBTYPES[sub]!;
      const target = chooseVariant(variants, finish, printRun);
      if (!target) continue;
      products.push({
        id: `${ref.ref_value}|${sub}`,
        card: target,
        ambiguous: ref.ambiguous,
        fields: US_FIELDS.filter(([field]) => field !== 'directLow').map(([field, priceType, factor]) => [
          `${field}Price`,
          plan(target, usRaw('tcgplayer', priceType), { factor }),
        ]),
      });
    }
  }
  return products;
}

const SCRYFALL_FIELDS: [field: string, finish: string, key: SeriesKey, factor: number][] = [
  ['usd', 'normal', usRaw('scryfall', 'market'), 1],
  ['usd_foil', 'foil', usRaw('scryfall', 'market'), 1],
  ['usd_etched', 'etched', usRaw('scryfall', 'market'), 1],
  ['eur', 'normal', euRaw('scryfall', 'trend'), EUR_PER_USD],
  ['eur_foil', 'foil', euRaw('scryfall', 'trend'), EUR_PER_USD],
];

async function scryfallPlan(pool: pg.Pool, game: string): Promise<PlannedProduct[]> {
  const byCard = await variantsByCard(pool, game);
  const products: PlannedProduct[] = [];
  for (const ref of await refsOf(pool, game, 'mtg_card_db_id')) {
    const variants = candidates(byCard, ref.card_id, ref.printing_id);
    const fields: [string, Planned][] = [];
    for (const [field, finish, key, factor] of SCRYFALL_FIELDS) {
      if (!variants.some((v) => v.finish === finish)) continue;
      const target = chooseVariant(variants, finish, null);
      if (target) fields.push([field, plan(target, key, { factor })]);
    }
    if (variants.length) products.push({ id: ref.ref_value, card: variants[0]!, fields, ambiguous: ref.ambiguous });
  }
  return products;
}

async function cardmarketPlan(pool: pg.Pool, game: string): Promise<PlannedProduct[]> {
  const byCard = await variantsByCard(pool, game);
  const products: PlannedProduct[] = [];
  for (const ref of await refsOf(pool, game, 'eu_marketplace_product_id')) {
    const variants = candidates(byCard, ref.card_id, ref.printing_id);
    const plain = variants.some((v) => v.finish === 'normal') ? chooseVariant(variants, 'normal', null) : null;
    const foil = variants.some((v) => v.finish !== 'normal') ? chooseVariant(variants, 'foil', null) : null;
    const fields: [string, Planned][] = [];
    for (const [priceType, terms] of EU_FIELDS) {
      if (plain) fields.push([priceType, plan(plain, euRaw('cardmarket', priceType), terms)]);
      if (foil) fields.push([`${priceType}-foil`, plan(foil, euRaw('cardmarket', priceType), terms)]);
    }
    if (variants.length) products.push({ id: ref.ref_value, card: variants[0]!, fields, ambiguous: ref.ambiguous });
  }
  return products;
}

async function priceChartingPlan(pool: pg.Pool, game: string): Promise<PlannedProduct[]> {
  const byCard = await variantsByCard(pool, game);
  // The guide's rows are linked by set name and number: a pair two cards share links neither.
  const named = new Map<string, number>();
  const nameOf = (v: MarketVariant) => `${v.set_name.toLowerCase()}|${v.number.toLowerCase()}`;
  for (const variants of byCard.values()) named.set(nameOf(variants[0]!), (named.get(nameOf(variants[0]!)) ?? 0) + 1);
  const products: PlannedProduct[] = [];
  for (const variants of byCard.values()) {
    if (named.get(nameOf(variants[0]!)) !== 1) continue;
    const runs = new Set(variants.map((v) => (v.print_run in PRICE_GUIDE_PRINT_RUNS ? v.print_run : null)));
    for (const run of runs) {
      const target = chooseVariant(variants, null, run);
      if (!target) continue;
      const base = basisOf(target).base;
      if (base < GRADED_WORTHY_USD && !GUIDE_LISTS_EVERY_CARD.has(game)) continue;
      const columns = base >= GRADED_WORTHY_USD ? PRICE_GUIDE_COLUMNS : PRICE_GUIDE_COLUMNS.slice(0, 1);
      products.push({
        // The guide's ids are its own; the demo's are stable ones derived from the variant.
        id: String(1_000_000 + target.variant_id),
        card: target,
        fields: columns.map(([column, key, factor]) => [column, plan(target, key('pricecharting'), { factor })]),
      });
    }
  }
  return products;
}

async function auctionPlan(pool: pg.Pool, game: string): Promise<PlannedProduct[]> {
  const byCard = await variantsByCard(pool, game);
  const watched = (await watchedCards(pool, game)).map((w) => w.card_id);
  const products: PlannedProduct[] = [];
  for (const cardId of watched) {
    const variants = byCard.get(cardId);
    const target = variants && chooseVariant(variants, null, null);
    if (!target || !target.external_key.startsWith('pokemontcg:')) continue;
    products.push({
      id: target.external_key.slice('pokemontcg:'.length),
      card: target,
      fields: AUCTION_GRADES.map(([title, key, terms]) => [title, plan(target, key, terms)]),
    });
  }
  return products;
}

/** The demo's feeds by source; each lists what it quotes for a game. */
export const FEED_PLANS: Record<string, (pool: pg.Pool, game: string) => Promise<PlannedProduct[]>> = {
  pokemontcg: pokemontcgPlan,
  tcgplayer: tcgplayerPlan,
  scryfall: scryfallPlan,
  cardmarket: cardmarketPlan,
  pricecharting: priceChartingPlan,
  ebay: auctionPlan,
};

const seriesId = (p: Planned) =>
  `${p.variant.variant_id}|${p.key.region}|${p.key.source}|${p.key.price_type}|${p.key.grading_company}|${p.key.grade}|${p.key.currency}`;

/**
 * The series a feed's plan loads: every priced field, except those of a reference that names
 * several cards, and where two products land on the same variant and series (the mapping refuses
 * both, since which is right is unknowable).
 */
export function loadedSeries(products: PlannedProduct[]): Planned[] {
  const mapped = products.filter((p) => !p.ambiguous);
  const counts = new Map<string, number>();
  for (const p of mapped) for (const [, planned] of p.fields) counts.set(seriesId(planned), (counts.get(seriesId(planned)) ?? 0) + 1);
  return mapped.flatMap((p) => p.fields.map(([, planned]) => planned)).filter((planned) => counts.get(seriesId(planned)) === 1);
}

/** The most valuable cards of a game by the model's base of their default variant: the demo's auction watchlist. */
export async function mostValuableCards(pool: pg.Pool, game: string, count: number): Promise<number[]> {
  const byCard = await variantsByCard(pool, game);
  const valued: [number, number][] = [];
  for (const [cardId, variants] of byCard) {
    const target = chooseVariant(variants, null, null);
    if (target && target.external_key.startsWith('pokemontcg:')) valued.push([cardId, basisOf(target).base]);
  }
  return valued
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, count)
    .map(([cardId]) => cardId);
}
