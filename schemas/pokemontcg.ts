// pokemontcg.io v2 compatibility (/compat/pokemontcg/v2): its request parameters, its response
// shapes, and how its price fields map to Holo's series. The feed parser (ingest/sources) and the
// compat layer read the same tables, so a price read in and a price served out agree.
import { intParam, z } from './common.js';
import { parseQ, QSyntaxError, type QNode } from './pokemontcgQuery.js';

/** TCGplayer price block keys and the (finish, print run) they name; null run: the card's default run. */
export const POKEMONTCG_FINISHES: Record<string, { finish: string; printRun: string | null }> = {
  normal: { finish: 'normal', printRun: null },
  holofoil: { finish: 'holofoil', printRun: null },
  reverseHolofoil: { finish: 'reverse-holofoil', printRun: null },
  '1stEditionHolofoil': { finish: 'holofoil', printRun: '1st-edition' },
  '1stEditionNormal': { finish: 'normal', printRun: '1st-edition' },
  unlimitedHolofoil: { finish: 'holofoil', printRun: 'unlimited' },
};
/** TCGplayer fields (USD) and Holo's us price types. */
export const POKEMONTCG_TCG_FIELDS: [field: string, priceType: string][] = [
  ['low', 'low'],
  ['mid', 'mid'],
  ['high', 'high'],
  ['market', 'market'],
  ['directLow', 'direct_low'],
];
/** Cardmarket fields (EUR), Holo's eu price types, and the finish (null: the plain variant). */
export const POKEMONTCG_CM_FIELDS: [field: string, priceType: string, finish: string | null][] = [
  ['averageSellPrice', 'avg', null],
  ['lowPrice', 'low', null],
  ['trendPrice', 'trend', null],
  ['avg1', 'avg1', null],
  ['avg7', 'avg7', null],
  ['avg30', 'avg30', null],
  ['reverseHoloSell', 'avg', 'reverse-holofoil'],
  ['reverseHoloLow', 'low', 'reverse-holofoil'],
  ['reverseHoloTrend', 'trend', 'reverse-holofoil'],
  ['reverseHoloAvg1', 'avg1', 'reverse-holofoil'],
  ['reverseHoloAvg7', 'avg7', 'reverse-holofoil'],
  ['reverseHoloAvg30', 'avg30', 'reverse-holofoil'],
];
/** Cardmarket fields pokemontcg.io carries that no Holo source reports: always null here. */
export const POKEMONTCG_CM_UNREPORTED = ['germanProLow', 'suggestedPrice', 'lowPriceExPlus'] as const;

// Requests ---------------------------------------------------------------------------------------

const Q = z
  .string()
  .max(1000)
  .transform((text, ctx): QNode => {
    try {
      return parseQ(text);
    } catch (err) {
      if (!(err instanceof QSyntaxError)) throw err;
      ctx.addIssue({ code: 'custom', message: err.message });
      return z.NEVER;
    }
  })
  .openapi({
    type: 'string',
    description:
      'Search in pokemontcg.io syntax: `field:value` (case-insensitive word match; `"quoted phrase"`; `*` and `?` wildcards), `!field:value` exact, `field:[a TO b]` inclusive and `{a TO b}` exclusive ranges (`*` open), nested fields (`set.id`, `attacks.name`, `legalities.standard`, `tcgplayer.prices.holofoil.market`), `-` or `NOT` to negate, `AND` (implied between terms), `OR`, parentheses.',
  });
/** pokemontcg.io's top-level fields of a card and of a set, in its order (what `select` may name). */
export const POKEMONTCG_CARD_FIELDS = [
  'id',
  'name',
  'supertype',
  'subtypes',
  'level',
  'hp',
  'types',
  'evolvesFrom',
  'evolvesTo',
  'rules',
  'ancientTrait',
  'abilities',
  'attacks',
  'weaknesses',
  'resistances',
  'retreatCost',
  'convertedRetreatCost',
  'set',
  'number',
  'artist',
  'rarity',
  'flavorText',
  'nationalPokedexNumbers',
  'legalities',
  'regulationMark',
  'images',
  'tcgplayer',
  'cardmarket',
] as const;
export const POKEMONTCG_SET_FIELDS = [
  'id',
  'name',
  'series',
  'printedTotal',
  'total',
  'legalities',
  'ptcgoCode',
  'releaseDate',
  'updatedAt',
  'images',
] as const;

/** What orderBy may name (sql/pokemontcg.ts holds the SQL of each). */
export const POKEMONTCG_SET_SORTS = ['id', 'name', 'series', 'releaseDate', 'updatedAt', 'total', 'printedTotal', 'ptcgoCode'] as const;
export const POKEMONTCG_CARD_SORTS = [
  'id',
  'name',
  'number',
  'rarity',
  'artist',
  'supertype',
  'hp',
  'nationalPokedexNumbers',
  'evolvesFrom',
  ...POKEMONTCG_SET_SORTS.filter((f) => f !== 'updatedAt' && f !== 'ptcgoCode').map((f) => `set.${f}` as const),
] as const;

const alternatives = (names: readonly string[]) => names.map((n) => n.replaceAll('.', '\\.')).join('|');
/** A comma-separated list of names from `names`, as a validated parameter whose pattern the document states. */
function nameList<T>(
  names: readonly string[],
  opts: { sign?: boolean; max: number; what: string; example: string },
  map: (name: string) => T,
) {
  const one = `${opts.sign ? '-?' : ''}(${alternatives(names)})`;
  const pattern = `^${one}(,${one}){0,${opts.max - 1}}$`;
  return z
    .string()
    .regex(new RegExp(pattern), { message: `comma-separated ${opts.what}: ${names.join(', ')}` })
    .transform((s) => s.split(',').map(map))
    .openapi({ type: 'string', pattern, example: opts.example });
}
const orderBy = (names: readonly string[], example: string) =>
  nameList(names, { sign: true, max: 5, what: 'fields to sort by, each optionally prefixed with - for descending', example }, (f) =>
    f.startsWith('-') ? { field: f.slice(1), descending: true } : { field: f, descending: false },
  );
const select = (names: readonly string[], example: string) =>
  nameList(names, { max: names.length, what: 'top-level fields', example }, (f) => f);

const listQuery = (opts: {
  qExample: string;
  sorts: readonly string[];
  orderExample: string;
  fields: readonly string[];
  selectExample: string;
}) =>
  z.strictObject({
    q: Q.openapi({ example: opts.qExample }).optional(),
    page: intParam({ min: 1, max: 100000 }).default(1),
    pageSize: intParam({ min: 1, max: 250 }).default(250),
    orderBy: orderBy(opts.sorts, opts.orderExample).optional(),
    select: select(opts.fields, opts.selectExample).optional(),
  });

export const CompatCardsQuery = listQuery({
  qExample: 'name:charizard subtypes:mega -set.id:base1 tcgplayer.prices.holofoil.market:[10 TO *]',
  sorts: POKEMONTCG_CARD_SORTS,
  orderExample: 'set.releaseDate,-number',
  fields: POKEMONTCG_CARD_FIELDS,
  selectExample: 'id,name,tcgplayer',
});
export const CompatSetsQuery = listQuery({
  qExample: 'series:xy releaseDate:[2015/01/01 TO *]',
  sorts: POKEMONTCG_SET_SORTS,
  orderExample: '-releaseDate',
  fields: POKEMONTCG_SET_FIELDS,
  selectExample: 'id,name,releaseDate',
});
export type CompatListQuery = z.output<typeof CompatCardsQuery>;
export const CompatCardSelect = z.strictObject({ select: select(POKEMONTCG_CARD_FIELDS, 'id,name,tcgplayer').optional() });
export const CompatSetSelect = z.strictObject({ select: select(POKEMONTCG_SET_FIELDS, 'id,name,releaseDate').optional() });
export const CompatCardParams = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9.]{1,32}-[A-Za-z0-9_!?.-]{1,16}$/, { message: 'a pokemontcg.io card id: {set}-{number}' })
    .openapi({ example: 'sv3pt5-6' }),
});
export const CompatSetParams = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9.]{1,32}$/, { message: 'a pokemontcg.io set id' })
    .openapi({ example: 'sv3pt5' }),
});

// Responses -------------------------------------------------------------------------------------

const Legalities = z.record(z.string(), z.string());
const Price = z.number().nullable();
export const CompatSet = z
  .object({
    id: z.string(),
    name: z.string(),
    series: z.string().nullable(),
    printedTotal: z.number().int().nullable(),
    total: z.number().int(),
    legalities: Legalities,
    ptcgoCode: z.string().optional(),
    releaseDate: z.string().nullable().openapi({ description: 'YYYY/MM/DD' }),
    updatedAt: z.string().openapi({ description: 'YYYY/MM/DD HH:MM:SS (UTC)' }),
    images: z.object({ symbol: z.string().optional(), logo: z.string().optional() }),
  })
  .partial()
  .openapi('PokemontcgSet');

export const CompatCard = z
  .object({
    id: z.string(),
    name: z.string(),
    supertype: z.string().nullable(),
    subtypes: z.array(z.string()),
    hp: z.string(),
    types: z.array(z.string()),
    set: CompatSet,
    number: z.string(),
    artist: z.string().nullable(),
    rarity: z.string().nullable(),
    nationalPokedexNumbers: z.array(z.number()),
    legalities: Legalities,
    images: z.object({ small: z.string(), large: z.string() }).partial(),
    tcgplayer: z.object({
      url: z.string(),
      updatedAt: z.string().openapi({ description: 'YYYY/MM/DD: the newest day among the prices' }),
      prices: z.record(z.string(), z.record(z.string(), Price)),
    }),
    cardmarket: z.object({ url: z.string(), updatedAt: z.string(), prices: z.record(z.string(), Price) }),
  })
  .partial()
  .catchall(z.unknown())
  .openapi('PokemontcgCard', {
    description:
      "pokemontcg.io's card object. Catalogue fields (attacks, abilities, weaknesses, rules, …) are the upstream's; tcgplayer and cardmarket hold Holo's latest prices in pokemontcg.io's field names; images are Holo's copies.",
  });

const listOf = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    page: z.number().int(),
    pageSize: z.number().int(),
    count: z.number().int().openapi({ description: 'items on this page' }),
    totalCount: z.number().int(),
  });
export const CompatCardList = listOf(CompatCard).openapi('PokemontcgCardList');
export const CompatCardOne = z.object({ data: CompatCard }).openapi('PokemontcgCardOne');
export const CompatSetList = listOf(CompatSet).openapi('PokemontcgSetList');
export const CompatSetOne = z.object({ data: CompatSet }).openapi('PokemontcgSetOne');
