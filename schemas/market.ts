// Market intelligence and price intelligence (spec: "Market intelligence, price intelligence" and
// the market lists of "Operations whose path is not given"). Amounts are USD unless named _eur.
import { DayParam, IsoDate, intParam, numberParam, text, z, idList } from './common.js';
import { TcgSlug } from './legacy.js';

const tcgOrAll = z
  .union([z.literal('all'), TcgSlug])
  .default('all')
  .openapi({ description: 'a game slug, or all' });
const period = z.enum(['7d', '30d', '90d']).default('7d');

export const MoversQuery = z.strictObject({ tcg: tcgOrAll, period, limit: intParam({ min: 1, max: 50 }).default(20) });
const Mover = z.object({
  card_id: z.number().int(),
  name: z.string(),
  set_name: z.string(),
  tcg_slug: z.string(),
  current_price: z.number(),
  change_pct: z.number(),
  change_abs: z.number(),
  volatility_pct: z.number().openapi({ description: 'standard deviation of the prices in the period over their mean, percent' }),
});
export const Movers = z
  .object({
    gainers: z.array(Mover),
    losers: z.array(Mover),
    most_volatile: z.array(Mover),
    period: z.string(),
    tcg: z.string(),
    as_of: IsoDate.nullable(),
  })
  .openapi('MarketMovers');

const GameIndex = z.object({
  tcg_slug: z.string(),
  series: z.number().int(),
  cards: z.number().int(),
  value_now: z.number(),
  value_then: z.number(),
  change_pct: z.number().nullable(),
  rising: z.number().int(),
  falling: z.number().int(),
  holding: z.number().int(),
});
export const OverviewQuery = z.strictObject({ period });
export const Overview = z
  .object({
    period: z.string(),
    as_of: IsoDate.nullable(),
    market: z.object({
      value_now: z.number(),
      value_then: z.number(),
      change_pct: z.number().nullable(),
      rising: z.number().int(),
      falling: z.number().int(),
      holding: z.number().int(),
    }),
    games: z.array(GameIndex),
    top_gainer: Mover.nullable(),
    top_loser: Mover.nullable(),
  })
  .openapi('MarketOverview');

export const MarketStats = z
  .object({
    total_cards: z.number().int(),
    total_prices: z.number().int().openapi({ description: 'price points in ClickHouse' }),
    total_users: z.number().int().openapi({ description: 'accounts, deleted ones excepted' }),
    total_sellers: z.number().int().openapi({ description: 'accounts registered as sellers' }),
    tcgs_covered: z.number().int(),
    last_update: z.string().nullable(),
  })
  .openapi('MarketStats');

export const RadarStats = z
  .object({
    period: z.string(),
    as_of: IsoDate.nullable(),
    games: z.array(
      z.object({
        tcg_slug: z.string(),
        rising_pct: z.number(),
        falling_pct: z.number(),
        holding_pct: z.number(),
        change_pct: z.number().nullable(),
        series: z.number().int(),
      }),
    ),
  })
  .openapi('RadarStats');
export const RadarQuery = z.strictObject({ period });

export const DealsQuery = z.strictObject({
  tcg_slug: TcgSlug.optional(),
  limit: intParam({ min: 1, max: 100 }).default(20),
  min_discount_pct: numberParam({ min: 0, max: 100 }).default(10),
});
export const Deals = z
  .object({
    items: z.array(
      z.object({
        card_id: z.number().int(),
        name: z.string(),
        set_name: z.string(),
        tcg_slug: z.string(),
        variant: z.string(),
        market_price: z.number(),
        lowest_price: z.number(),
        discount_pct: z.number(),
        source: z.string(),
        as_of: IsoDate,
      }),
    ),
  })
  .openapi('BestDeals');

const Trending = z.object({
  card_id: z.number().int(),
  name: z.string(),
  set_name: z.string(),
  tcg_slug: z.string(),
  current_price: z.number(),
  predicted_price: z.number(),
  predicted_change_pct: z.number(),
  slope_per_day: z.number(),
  data_points: z.number().int(),
  confidence: z.enum(['low', 'medium', 'high']),
});
export const TrendingQuery = z.strictObject({
  tcg_slug: TcgSlug.optional(),
  days_ahead: intParam({ min: 7, max: 90 }).default(30),
  limit: intParam({ min: 1, max: 50 }).default(20),
});
export const TrendingPredictions = z.object({ days_ahead: z.number().int(), items: z.array(Trending) }).openapi('TrendingPredictions');
export const RisingQuery = z.strictObject({ limit: intParam({ min: 1, max: 50 }).default(10), tcg_slug: TcgSlug.optional() });
export const RisingCards = z.object({ items: z.array(Trending) }).openapi('RisingCards');

export const OlderMoversQuery = z.strictObject({
  direction: z.enum(['up', 'down']).default('up'),
  limit: intParam({ min: 1, max: 50 }).default(12),
  tcg_slug: TcgSlug.optional(),
});
export const OlderMovers = z.array(Mover).openapi('OlderMovers');

export const SpreadQuery = z.strictObject({
  limit: intParam({ min: 1, max: 100 }).default(20),
  tcg_slug: TcgSlug.optional(),
  min_spread_pct: numberParam({ min: 0, max: 10000 }).default(20),
});
export const Spread = z
  .object({
    items: z.array(
      z.object({
        card_id: z.number().int(),
        name: z.string(),
        set_name: z.string(),
        tcg_slug: z.string(),
        low_price: z.number(),
        high_price: z.number(),
        spread_pct: z.number(),
        cheapest_source: z.string(),
        dearest_source: z.string(),
        sources: z.number().int(),
      }),
    ),
  })
  .openapi('SpreadList');

export const RecentQuery = z.strictObject({ limit: intParam({ min: 1, max: 100 }).default(12), tcg_slug: TcgSlug.optional() });
export const RecentUpdates = z
  .object({
    items: z.array(
      z.object({
        card_id: z.number().int(),
        name: z.string(),
        set_name: z.string(),
        tcg_slug: z.string(),
        price: z.number(),
        previous_price: z.number().nullable(),
        change_pct: z.number().nullable(),
        source: z.string(),
        date: IsoDate,
      }),
    ),
  })
  .openapi('RecentPriceUpdates');

// Price intelligence: euro-denominated, condition-aware.
export const CONDITION_FACTORS = { NM: 1, LP: 0.85, MP: 0.7, HP: 0.5, DMG: 0.3 } as const;
export const PriceIntelligenceCardParams = z.strictObject({ id: intParam({ min: 1, max: 2147483647 }) });
export const PriceIntelligenceCardQuery = z.strictObject({
  foil_status: z.enum(['nonfoil', 'foil', 'etched']).default('nonfoil'),
  condition: z
    .enum(['NM', 'LP', 'MP', 'HP', 'DMG'])
    .default('NM')
    .openapi({ description: 'prices are near-mint references; other conditions apply the factors LP 0.85, MP 0.70, HP 0.50, DMG 0.30' }),
  language: z
    .string()
    .regex(/^[a-z]{2}$/)
    .default('en'),
  printing: z.enum(['unlimited', '1st_edition']).default('unlimited'),
});
export const PriceIntelligenceCard = z
  .object({
    card_id: z.number().int(),
    price_summary: z.object({
      market_price_eur: z.number().nullable(),
      low_eur: z.number().nullable(),
      high_eur: z.number().nullable(),
      confidence: z.enum(['low', 'medium', 'high']),
    }),
    source_breakdown: z.array(z.object({ source: z.string(), median_eur: z.number(), n_listings: z.number().int() })),
    correlation_notes: z.array(z.string()),
    scope: z.object({
      variants: z.array(z.string()),
      condition: z.string(),
      condition_factor: z.number(),
      eur_per_usd: z.number().nullable(),
      fx_date: IsoDate.nullable(),
    }),
    correlation: z
      .object({
        correlated_at: z.string(),
        consensus_usd: z.number(),
        confidence: z.enum(['low', 'medium', 'high']),
        agreeing_sources: z.number().int(),
        considered_sources: z.number().int(),
        disagreeing: z.array(z.object({ source: z.string(), median_usd: z.number(), delta_pct: z.number() })),
      })
      .nullable()
      .openapi({
        description:
          'the last cross-source correlation run (POST /api/price-intelligence/correlate) over all of the card’s sources: null before the first',
      }),
  })
  .openapi('PriceIntelligenceCard');

export const PriceIntelligenceSources = z
  .object({
    items: z.array(
      z.object({
        source: z.string(),
        label: z.string(),
        region: z.string(),
        currencies: z.array(z.string()),
        cards: z.number().int(),
        variants: z.number().int(),
        last_day: IsoDate,
        values: z.number().int(),
      }),
    ),
  })
  .openapi('PriceIntelligenceSources');

export const FxQuery = z.strictObject({
  from_currency: z
    .string()
    .regex(/^[A-Z]{3}$/, { message: 'an ISO 4217 code such as USD' })
    .default('USD'),
  to_currency: z
    .string()
    .regex(/^[A-Z]{3}$/, { message: 'an ISO 4217 code such as EUR' })
    .default('EUR'),
});
export const FxRate = z
  .object({ from_currency: z.string(), to_currency: z.string(), rate: z.number(), date: IsoDate, source: z.literal('ecb') })
  .openapi('FxRate');

export const PriceIntelligenceHistoryQuery = z.strictObject({
  card_id: intParam({ min: 1, max: 2147483647 }),
  days: intParam({ min: 1, max: 365 }).default(90),
});
export const PriceIntelligenceHistory = z
  .object({ card_id: z.number().int(), days: z.number().int(), points: z.array(z.object({ date: IsoDate, market_price_eur: z.number() })) })
  .openapi('PriceIntelligenceHistory');
export const PriceIntelligenceCompareQuery = z.strictObject({
  ids: idList({ max: 5, what: 'card' }),
});
export const PriceIntelligenceCompare = z
  .object({ items: z.array(PriceIntelligenceCard.extend({ name: z.string() })), missing: z.array(z.number().int()) })
  .openapi('PriceIntelligenceCompare');
export const PriceIntelligenceSearchQuery = z.strictObject({ q: text({ max: 200 }), limit: intParam({ min: 1, max: 50 }).default(20) });
export const PriceIntelligenceSearch = z
  .object({
    items: z.array(
      z.object({
        card_id: z.number().int(),
        name: z.string(),
        set_name: z.string(),
        tcg_slug: z.string(),
        market_price_eur: z.number().nullable(),
      }),
    ),
    total: z.number().int(),
  })
  .openapi('PriceIntelligenceSearch');
export const PriceIntelligenceStats = z
  .object({
    sources: z.number().int(),
    cards_priced: z.number().int(),
    price_points: z.number().int(),
    outliers: z.number().int(),
    last_day: IsoDate.nullable(),
    by_game: z.array(z.object({ tcg_slug: z.string(), price_points: z.number().int(), sources: z.number().int() })),
  })
  .openapi('PriceIntelligenceStats');

export const DetailedStats = z
  .object({
    catalogue: z.object({
      games: z.number().int(),
      sets: z.number().int(),
      cards: z.number().int(),
      printings: z.number().int(),
      variants: z.number().int(),
      priced_cards: z.number().int(),
    }),
    by_game: z.array(
      z.object({
        tcg_slug: z.string(),
        sets: z.number().int(),
        cards: z.number().int(),
        variants: z.number().int(),
        priced_cards: z.number().int(),
      }),
    ),
    prices: z.array(
      z.object({ tcg_slug: z.string(), source: z.string(), points: z.number().int(), outliers: z.number().int(), last_day: IsoDate }),
    ),
    totals: z.object({ price_points: z.number().int(), outliers: z.number().int() }),
  })
  .openapi('DetailedStats');

// The price operations the spec publishes without a path (price list by source, series by date,
// set or card list, summary by period), under the price-intelligence group, in euros.
const SourceName = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, { message: 'a source name: lower-case letters, digits and _' })
  .openapi({ description: 'a source name as /api/price-intelligence/sources lists it (tcgplayer, cardmarket, …)' });
const FoilStatus = z.enum(['nonfoil', 'foil', 'etched']);
const ConditionParam = z
  .enum(['NM', 'LP', 'MP', 'HP', 'DMG'])
  .default('NM')
  .openapi({ description: 'prices are near-mint references; other conditions apply the factors LP 0.85, MP 0.70, HP 0.50, DMG 0.30' });

export const CardPricesParams = z.strictObject({ id: intParam({ min: 1, max: 2147483647 }) });
export const CardPricesQuery = z.strictObject({
  source: SourceName.optional(),
  foil_status: FoilStatus.optional(),
  condition: ConditionParam,
  limit: intParam({ min: 1, max: 200 }).default(50),
  offset: intParam({ min: 0, max: 100_000 }).default(0),
});
export const CardPriceList = z
  .object({
    card_id: z.number().int(),
    condition: z.string(),
    items: z.array(
      z.object({
        variant: z.string(),
        foil_status: FoilStatus,
        language: z.string(),
        source: z.string(),
        region: z.string(),
        price_type: z.string(),
        currency: z.string(),
        amount: z.number().openapi({ description: 'in the source’s own currency, for the condition asked for' }),
        amount_eur: z.number().nullable().openapi({ description: 'at the newest ECB reference rate; null before any rate is loaded' }),
        as_of: IsoDate,
      }),
    ),
    total: z.number().int(),
  })
  .openapi('CardPriceList');

/** The longest series one call returns. */
export const MAX_SERIES_DAYS = 366;
export const CardSeriesQuery = z.strictObject({
  start_date: DayParam.optional().openapi({
    description: `first day; default 29 days before end_date; at most ${MAX_SERIES_DAYS} days before it (else 422)`,
  }),
  end_date: DayParam.optional().openapi({ description: 'last day; default today (UTC); not before start_date (else 422)' }),
  source: SourceName.optional().openapi({ description: 'one source; default every source' }),
});
export const CardSeries = z
  .object({
    card_id: z.number().int(),
    variant: z.string(),
    start_date: IsoDate,
    end_date: IsoDate,
    source: z.string().nullable(),
    points: z.array(z.object({ date: IsoDate, source: z.string(), market_price_eur: z.number() })),
  })
  .openapi('CardPriceSeries');

export const SetPricesParams = z.strictObject({ set_id: intParam({ min: 1, max: 2147483647 }) });
export const SetPricesQuery = z.strictObject({
  limit: intParam({ min: 1, max: 200 }).default(50),
  offset: intParam({ min: 0, max: 100_000 }).default(0),
  source: SourceName.optional(),
  variant: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,39}$/, { message: 'a finish: normal, holofoil, reverse-holofoil, foil, etched, …' })
    .optional()
    .openapi({ description: 'a finish (normal, holofoil, reverse-holofoil, foil, etched, …)' }),
});
export const SetPriceList = z
  .object({
    set_id: z.number().int(),
    items: z.array(
      z.object({
        card_id: z.number().int(),
        name: z.string(),
        number: z.string(),
        variant: z.string(),
        source: z.string(),
        region: z.string(),
        currency: z.string(),
        market_price: z.number(),
        market_price_eur: z.number().nullable(),
        as_of: IsoDate,
      }),
    ),
    total: z.number().int(),
  })
  .openapi('SetPriceList');

export const SUMMARY_PERIOD_DAYS = { '7d': 7, '30d': 30, '90d': 90, '1y': 365 } as const;
export const CardSummaryQuery = z.strictObject({ period: z.enum(['7d', '30d', '90d', '1y']).default('30d') });
const PeriodStats = z.object({
  days: z.number().int().openapi({ description: 'days with a price' }),
  first: z.number().nullable(),
  last: z.number().nullable(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  mean: z.number().nullable(),
  change_pct: z.number().nullable(),
});
export const CardSummary = z
  .object({
    card_id: z.number().int(),
    variant: z.string(),
    period: z.enum(['7d', '30d', '90d', '1y']),
    start_date: IsoDate,
    end_date: IsoDate,
    overall: PeriodStats.openapi({ description: 'the daily median across sources, in euros' }),
    by_source: z.array(PeriodStats.extend({ source: z.string() })),
  })
  .openapi('CardPriceSummary');
