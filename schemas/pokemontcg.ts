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
    example: 'name:charizard subtypes:mega -set.id:base1 tcgplayer.prices.holofoil.market:[10 TO *]',
  });
const orderBy = z
  .string()
  .regex(/^-?[A-Za-z0-9_.]+(,-?[A-Za-z0-9_.]+){0,4}$/, {
    message: 'comma-separated fields, each optionally prefixed with - for descending',
  })
  .transform((s) =>
    s.split(',').map((f) => (f.startsWith('-') ? { field: f.slice(1), descending: true } : { field: f, descending: false })),
  )
  .openapi({
    type: 'string',
    description: 'fields to sort by, comma-separated; `-` before a field sorts it descending',
    example: 'set.releaseDate,-number',
  });
const select = z
  .string()
  .regex(/^[A-Za-z0-9_]+(,[A-Za-z0-9_]+){0,40}$/, { message: 'comma-separated top-level field names' })
  .transform((s) => s.split(','))
  .openapi({ type: 'string', description: 'only these top-level fields of each item', example: 'id,name,tcgplayer' });

export const CompatListQuery = z.strictObject({
  q: Q.optional(),
  page: intParam({ min: 1, max: 100000 }).default(1),
  pageSize: intParam({ min: 1, max: 250 }).default(250),
  orderBy: orderBy.optional(),
  select: select.optional(),
});
export const CompatSelectQuery = z.strictObject({ select: select.optional() });
export const CompatCardParams = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9.]+-[^\s/]{1,16}$/, { message: 'a pokemontcg.io card id: {set}-{number}' })
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
