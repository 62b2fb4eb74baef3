// The legacy catalogue surface (spec: "Legacy TCG", "Legacy set", "Legacy card", "Legacy catalogue").
// Lists page with limit/offset and answer {items, total, limit, offset}.
import { DayParam, IsoDate, intParam, numberParam, text, z, idList } from './common.js';

const id = (description?: string) => intParam({ min: 1, max: 2147483647, description });
export const TcgSlug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, { message: 'not a game slug' })
  .openapi({ example: 'pokemon' });

export const limitOffset = (max: number, defaultLimit: number) => ({
  limit: intParam({ min: 1, max }).default(defaultLimit),
  offset: intParam({ min: 0, max: 10_000_000 }).default(0),
});

export const Tcg = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    name: z.string(),
    publisher: z.string().nullable(),
    logo_url: z.string().nullable(),
    website_url: z.string().nullable(),
    description: z.string().nullable(),
  })
  .openapi('Tcg');
export const TcgListItem = Tcg.extend({ created_at: z.string().openapi({ description: 'ISO 8601 UTC' }) }).openapi('TcgListItem');
export const TcgList = z.object({ items: z.array(TcgListItem) }).openapi('TcgList');
export const TcgParams = z.strictObject({ slug: TcgSlug });

export const LegacySet = z
  .object({
    id: z.number().int(),
    tcg_id: z.number().int(),
    name: z.string(),
    code: z.string(),
    release_date: IsoDate.nullable(),
    total_cards: z.number().int(),
    logo_url: z.string().nullable(),
  })
  .openapi('LegacySet');

const page = <T extends z.ZodType>(item: T, name: string) =>
  z.object({ items: z.array(item), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }).openapi(name);

export const LegacySetList = page(LegacySet, 'LegacySetList');
export const GameSetsParams = z.strictObject({ tcg_slug: TcgSlug });
export const GameSetsQuery = z.strictObject(limitOffset(200, 50));
export const GameSetParams = z.strictObject({ tcg_slug: TcgSlug, set_id: id() });
export const SetCardsQuery = z.strictObject(limitOffset(500, 500));

export const LegacyCard = z
  .object({
    id: z.number().int(),
    card_set_id: z.number().int(),
    name: z.string(),
    number: z.string(),
    rarity: z.string().nullable(),
    card_type: z.string().nullable(),
    image_url: z.string().nullable().openapi({ description: "the upstream publisher's picture, when known" }),
    local_image_url: z
      .string()
      .openapi({ description: "the picture from Holo's origin (a rendered placeholder until the original is fetched)" }),
    attributes: z.record(z.string(), z.unknown()),
  })
  .openapi('LegacyCard');
export const LegacyCardList = page(LegacyCard, 'LegacyCardList');

export const LegacyCardPrice = z
  .object({
    source: z.string(),
    market_price: z.number(),
    currency: z.string(),
    variant: z.string().openapi({
      description: 'finish, with the print run when not unlimited: normal, holofoil, reverse-holofoil, 1st-edition holofoil, …',
    }),
  })
  .openapi('LegacyCardPrice');

export const LegacyCardDetail = LegacyCard.extend({
  prices: z.array(LegacyCardPrice),
  master_card_id: z.number().int().openapi({ description: 'the card this one is a language version of; its own id when none is known' }),
  illustrator: z.string().nullable(),
  legalities: z.record(z.string(), z.unknown()),
}).openapi('LegacyCardDetail');

export const GameCardsParams = z.strictObject({ tcg_slug: TcgSlug });
export const GameCardsQuery = z
  .strictObject({
    ...limitOffset(200, 50),
    offset: intParam({ min: 0, max: 10_000_000 }).optional(),
    page: intParam({
      min: 1,
      max: 100_000,
      description: '1-based page of `limit` cards; an alternative to offset, and it wins when both are given',
    }).optional(),
    set_id: id().optional(),
    rarity: text({ max: 100 }).optional(),
    name: text({ max: 200 }).optional().openapi({ description: 'case-insensitive substring of the card name' }),
  })
  .transform(({ page, offset, ...q }) => ({ ...q, offset: page !== undefined ? (page - 1) * q.limit : (offset ?? 0) }));
export const GameCardParams = z.strictObject({ tcg_slug: TcgSlug, card_id: id() });

export const SetIdParams = z.strictObject({ set_id: id() });
export const SetStats = z
  .object({
    set_id: z.number().int(),
    card_count: z.number().int(),
    priced_cards: z.number().int().openapi({ description: 'cards with a reference price' }),
    currency: z.literal('USD'),
    min_price: z.number().nullable(),
    max_price: z.number().nullable(),
    avg_price: z.number().nullable(),
    total_value: z.number().openapi({ description: 'sum of the reference prices of the set (the same as set_value)' }),
    set_value: z.number(),
  })
  .openapi('SetStats');

export const TopCardsQuery = z.strictObject({ limit: intParam({ min: 1, max: 50 }).default(10) });
export const TopCard = z
  .object({
    card_id: z.number().int(),
    name: z.string(),
    number: z.string(),
    rarity: z.string().nullable(),
    image_url: z.string(),
    best_price: z.number(),
    currency: z.literal('USD'),
    tcg_slug: z.string(),
  })
  .openapi('TopCard');
export const TopCards = z.array(TopCard);

export const SetCompletion = z
  .object({
    set_id: z.number().int(),
    total_cards: z.number().int().openapi({ description: "cards the set's publisher counts (printed total when known)" }),
    catalogued_cards: z.number().int().openapi({ description: 'cards of the set in the catalogue' }),
    secret_cards: z.number().int().openapi({ description: 'catalogued cards numbered beyond the printed total' }),
    by_rarity: z.array(z.object({ rarity: z.string().nullable(), cards: z.number().int(), value: z.number() })),
    complete_set_value: z.number().openapi({ description: 'USD: one of every catalogued card at its reference price' }),
    priced_cards: z.number().int(),
    currency: z.literal('USD'),
  })
  .openapi('SetCompletion');

export const RelatedLanguageSet = z
  .object({
    id: z.number().int(),
    name: z.string(),
    code: z.string(),
    language: z.string(),
    release_date: IsoDate.nullable(),
    total_cards: z.number().int(),
  })
  .openapi('RelatedLanguageSet');
export const RelatedLanguages = z
  .object({ set_id: z.number().int(), language: z.string(), related: z.array(RelatedLanguageSet) })
  .openapi('RelatedLanguages');

// Card lists across the catalogue (recent, new, top): the legacy card plus where it lives and its price.
export const CardListItem = LegacyCard.extend({
  set_name: z.string(),
  set_code: z.string(),
  tcg_slug: z.string(),
  best_price: z.number().nullable(),
  currency: z.literal('USD'),
  created_at: z.string(),
}).openapi('LegacyCardListItem');
export const CardListResponse = z.object({ items: z.array(CardListItem), total: z.number().int() }).openapi('LegacyCardListResponse');

export const RecentCardsQuery = z.strictObject({ limit: intParam({ min: 1, max: 100 }).default(20), tcg_slug: TcgSlug.optional() });
export const NewCardsQuery = z.strictObject({
  since: DayParam.optional().openapi({ description: 'default: 30 days ago' }),
  limit: intParam({ min: 1, max: 200 }).default(50),
  tcg_slug: TcgSlug.optional(),
});
export const TopCardsAllQuery = z.strictObject({ limit: intParam({ min: 1, max: 100 }).default(25), tcg_slug: TcgSlug.optional() });

export const CompareQuery = z.strictObject({
  ids: idList({ max: 3, what: 'card' }),
});
export const CompareResponse = z
  .object({
    items: z.array(
      LegacyCardDetail.extend({
        set_name: z.string(),
        tcg_slug: z.string(),
        best_price: z.number().nullable(),
        currency: z.literal('USD'),
      }),
    ),
    missing: z.array(z.number().int()).openapi({ description: 'requested ids that name no card' }),
    cheapest_card_id: z.number().int().nullable(),
    dearest_card_id: z.number().int().nullable(),
  })
  .openapi('CompareResponse');

export const MarketplaceUrlsQuery = z.strictObject({
  variant: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/)
    .default('normal'),
});
export const MarketplaceUrls = z
  .object({
    card_id: z.number().int(),
    variant: z.string(),
    european_marketplace_url: z.string(),
    us_marketplace_url: z.string(),
    auction_url: z.string(),
  })
  .openapi('MarketplaceUrls');

export const EvolutionChain = z
  .object({
    card_id: z.number().int(),
    chain: z.array(z.object({ stage: z.number().int(), name: z.string(), card_id: z.number().int().nullable() })),
  })
  .openapi('EvolutionChain');
export const CardIdParams = z.strictObject({ card_id: id() });

export const SearchQuery = z.strictObject({
  q: text({ max: 200 }),
  tcg_slug: TcgSlug.optional(),
  set_id: id().optional(),
  rarity: text({ max: 100 }).optional(),
  min_price: numberParam({ min: 0, max: 1e9, description: 'USD, against best_price (in the condition asked for)' }).optional(),
  max_price: numberParam({ min: 0, max: 1e9 }).optional(),
  foil_status: z.enum(['nonfoil', 'foil', 'etched']).optional().openapi({
    description:
      'cards that exist with this foil status: nonfoil = the standard print (normal or holofoil), foil = any other foil finish (reverse holo, foil, rainbow, cold), etched',
  }),
  condition: z.enum(['NM', 'LP', 'MP', 'HP', 'DMG']).optional().openapi({
    description:
      'prices in this condition: the near-mint reference × LP 0.85, MP 0.70, HP 0.50, DMG 0.30 (as /api/price-intelligence/card/{id}); best_price and the min_price/max_price bounds use it',
  }),
  language: z
    .string()
    .regex(/^[a-z]{2}$/)
    .optional()
    .openapi({ description: 'cards printed in this language (ISO 639-1)' }),
  limit: intParam({ min: 1, max: 200 }).default(50),
  offset: intParam({ min: 0, max: 100_000 }).default(0),
});
export const SearchResult = LegacyCard.extend({
  display_image_url: z.string(),
  set_name: z.string(),
  set_code: z.string(),
  tcg_slug: z.string(),
  best_price: z.number().nullable(),
  price_change_7d: z.number().nullable().openapi({ description: "percent change of the reference variant's US market price over 7 days" }),
  match: z.enum(['exact', 'prefix', 'words', 'similar']),
}).openapi('SearchResult');
export const SearchResponse = z.object({ items: z.array(SearchResult), total: z.number().int() }).openapi('SearchResponse');

export const SealedPrice = z.object({
  region: z.string(),
  source: z.string(),
  price_type: z.string(),
  currency: z.string(),
  amount: z.number(),
  as_of: IsoDate,
});
export const SealedProduct = z
  .object({
    id: z.number().int(),
    name: z.string(),
    category: z.string().openapi({ description: 'Booster, Booster Boxes, Starter Decks, Promo Products, Lots, …' }),
    set_id: z.number().int().nullable(),
    set_code: z.string().nullable(),
    added_at: IsoDate.nullable(),
    market_price_eur: z.number().nullable().openapi({ description: 'EU marketplace trend' }),
    market_price_usd: z.number().nullable().openapi({ description: 'US marketplace market price' }),
  })
  .openapi('SealedProduct');
export const SealedList = page(SealedProduct, 'SealedProductList');
export const SealedQuery = z.strictObject({ ...limitOffset(200, 50), set_id: id().optional() });
export const SealedParams = z.strictObject({ tcg_slug: TcgSlug, product_id: id() });
export const SealedDetail = SealedProduct.extend({
  prices: z.array(SealedPrice),
  price_history: z
    .array(z.object({ date: IsoDate, price_type: z.string(), currency: z.string(), price: z.number() }))
    .openapi({ description: 'daily, last 365 days: EU trend (EUR) and US market (USD)' }),
}).openapi('SealedProductDetail');
