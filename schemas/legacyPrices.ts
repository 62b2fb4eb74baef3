// Legacy prices, history and analytics of one card (spec: "Legacy prices and history").
// Every amount is in US dollars unless a `currency` field says otherwise.
import { IsoDate, intParam, z } from './common.js';

const variant = z
  .string()
  .regex(/^[a-z0-9-]{1,40}( [a-z0-9-]{1,40})?$/, { message: 'a variant name such as foil, reverse-holo, 1st-edition' })
  .openapi({
    description:
      'variant name: normal, holofoil, foil, etched-foil, reverse-holo, 1st-edition, shadowless, prerelease, … (default: the reference variant)',
  });
const gradingCompany = z
  .string()
  .regex(/^[A-Za-z]{2,10}$/, { message: 'a grading company such as PSA, BGS, CGC' })
  .transform((s) => s.toLowerCase())
  .openapi({ description: 'PSA, BGS, CGC, SGC, ACE, other (case-insensitive); raw for ungraded' });
const grade = z.string().regex(/^(10|[1-9](\.5)?|pc1[78])$/, { message: 'a grade such as 10, 9.5, 9' });
const money = z.number();
const nullableMoney = z.number().nullable();

export const CardPriceParams = z.strictObject({ card_id: intParam({ min: 1, max: 2147483647 }) });

export const PriceSourceRow = z
  .object({
    source: z.string(),
    market_price: money,
    low_price: nullableMoney,
    high_price: nullableMoney,
    currency: z.string().openapi({ description: 'the source’s own currency' }),
    variant: z.string(),
    recorded_at: z.string(),
  })
  .openapi('PriceSourceRow');
export const CardPrices = z.object({ card_id: z.number().int(), sources: z.array(PriceSourceRow) }).openapi('CardPrices');

export const PriceHistoryQuery = z.strictObject({
  days: z
    .enum(['7', '30', '90', '180', '365'])
    .default('90')
    .transform(Number)
    .openapi({ type: 'integer', enum: [7, 30, 90, 180, 365] }),
  source: z
    .string()
    .regex(/^[a-z0-9_-]{1,40}$/)
    .optional(),
  variant: variant.optional(),
});
const Analysis = z
  .object({
    change_7d: z.number().nullable().openapi({ description: 'percent' }),
    change_30d: z.number().nullable(),
    change_90d: z.number().nullable(),
    volatility: z
      .number()
      .nullable()
      .openapi({ description: 'standard deviation of daily log returns over the last 365 days, in percent' }),
    trend: z
      .enum(['up', 'down', 'stable'])
      .openapi({ description: 'slope of a least-squares line over the last 365 days: beyond ±0.1 % of the mean price a day' }),
  })
  .openapi('PriceAnalysis');
export const PriceHistory = z
  .object({
    card_id: z.number().int(),
    variant: z.string(),
    currency: z.literal('USD'),
    snapshots: z.array(z.object({ date: IsoDate, source: z.string(), market_price: money })),
    analysis: Analysis,
  })
  .openapi('PriceHistory');

export const MULTI_MIN_POINTS = 5;
export const PriceHistoryMulti = z
  .object({
    card_id: z.number().int(),
    series: z.array(
      z.object({
        key: z.string().openapi({ description: '<variant>|<grading_company>|<grade>' }),
        label: z.string(),
        variant: z.string(),
        grading_company: z.string(),
        grade: z.string(),
        currency: z.literal('USD'),
        total_points: z.number().int(),
        points: z.array(z.object({ date: IsoDate, price: money })),
      }),
    ),
    total_series: z.number().int(),
    min_points: z.number().int(),
  })
  .openapi('PriceHistoryMulti');

export const SnapshotsQuery = z.strictObject({
  source: z
    .string()
    .regex(/^[a-z0-9_-]{1,40}$/)
    .optional()
    .openapi({ description: 'default: the source with the most daily values for the card' }),
  variant: variant.optional(),
  days: intParam({ min: 1, max: 365 }).default(180),
});
export const PriceSnapshots = z
  .object({
    card_id: z.number().int(),
    source: z.string().nullable(),
    variant: z.string(),
    days: z.number().int(),
    points: z.array(
      z.object({
        date: IsoDate,
        variant: z.string(),
        currency: z.string(),
        grading_company: z.string(),
        grade: z.string(),
        market_price: money,
      }),
    ),
    count: z.number().int(),
  })
  .openapi('PriceSnapshots');

export const EbaySoldQuery = z.strictObject({
  days: intParam({ min: 1, max: 365 }).default(90),
  grading_company: gradingCompany.optional(),
  grade: grade.optional(),
});
export const EbaySold = z
  .object({
    card_id: z.number().int(),
    days: z.number().int(),
    grading_company: z.string().nullable(),
    grade: z.string().nullable(),
    sales: z.array(
      z.object({ date: IsoDate, grading_company: z.string(), grade: z.string(), average_price: money, count: z.number().int() }),
    ),
    summary: z.array(
      z.object({
        grading_company: z.string(),
        grade: z.string(),
        average_price: money,
        median_price: money,
        min_price: money,
        max_price: money,
        count: z.number().int(),
      }),
    ),
    total_sales_points: z.number().int(),
    total_grades: z.number().int(),
  })
  .openapi('EbaySold');

export const AggregatesQuery = z.strictObject({
  variant: variant.optional(),
  grading_company: gradingCompany.optional(),
  grade: grade.optional(),
});
const Delta = z.object({ abs: z.number().nullable(), pct: z.number().nullable(), anomaly: z.boolean() });
const Tier = z.object({
  price: nullableMoney,
  spread_pct: z.number().nullable().openapi({ description: 'percent above (+) or below (−) the current market price' }),
});
export const PriceAggregates = z
  .object({
    card_id: z.number().int(),
    scope: z.object({ variant: z.string(), grading_company: z.string(), grade: z.string() }),
    current: z.object({ price: nullableMoney, currency: z.literal('USD'), recorded_at: z.string().nullable() }),
    deltas: z.object({ d1: Delta, d7: Delta, d30: Delta, d90: Delta, d365: Delta }),
    all_time_high: z.object({ price: nullableMoney, date: IsoDate.nullable() }),
    sales_volume_30d: z.number().int().nullable(),
    point_count: z.number().int(),
    market_verdict: z
      .object({
        price: money,
        currency: z.literal('USD'),
        confidence: z.enum(['low', 'medium', 'high']),
        agreeing_sources: z.number().int(),
        considered_sources: z.number().int(),
        spread_pct: z.number(),
        region_bias: z.number().nullable(),
        sources: z.array(
          z.object({
            source: z.string(),
            label: z.string(),
            median: money,
            sample_size: z.number().int(),
            weight: z.number(),
            agrees: z.boolean(),
            delta_pct: z.number(),
          }),
        ),
      })
      .nullable(),
    buy_sell_spread: z.object({ currency: z.literal('USD'), tiers: z.object({ loose: Tier, cib: Tier, new: Tier }) }),
    velocity: z.object({ label: z.string(), sample_30d: z.number().int(), tier: z.enum(['none', 'low', 'medium', 'high']) }),
  })
  .openapi('PriceAggregates');

export const RecentSalesQuery = z.strictObject({
  window_days: intParam({ min: 1, max: 365 }).default(30),
  language: z
    .string()
    .regex(/^[a-z]{2}$/)
    .default('en'),
  variant: variant.optional(),
});
export const RecentSales = z
  .object({
    card_id: z.number().int(),
    window_days: z.number().int(),
    language: z.string(),
    variant: z.string(),
    sales: z.array(
      z.object({
        date: IsoDate,
        variant: z.string(),
        grading_company: z.string(),
        grade: z.string(),
        price: money,
        currency: z.string(),
        price_usd: money,
        listing_id: z.string(),
      }),
    ),
    count: z.number().int(),
    average_price_usd: nullableMoney,
  })
  .openapi('RecentSales');

export const StashScore = z
  .object({
    card_id: z.number().int(),
    score: z.number().int().min(0).max(100),
    components: z.object({
      price_momentum: z.number().int(),
      rarity: z.number().int(),
      liquidity: z.number().int(),
      source_agreement: z.number().int(),
    }),
    label: z.enum(['strong', 'solid', 'speculative', 'weak']),
  })
  .openapi('StashScore');

export const PredictQuery = z.strictObject({ days_ahead: intParam({ min: 7, max: 365 }).default(30) });
export const Prediction = z
  .object({
    card_id: z.number().int(),
    card_name: z.string(),
    current_price: nullableMoney,
    predicted_price: nullableMoney,
    predicted_change_pct: z.number().nullable(),
    confidence: z.enum(['low', 'medium', 'high']),
    data_points: z.number().int(),
    trend: z.enum(['up', 'down', 'stable']),
    slope_per_day: z.number().nullable(),
    future_points: z.array(z.object({ date: IsoDate, price: money })),
  })
  .openapi('Prediction');
