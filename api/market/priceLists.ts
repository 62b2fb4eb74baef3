// The price operations the spec publishes without a path, under /api/price-intelligence: a card's
// latest prices by source, its daily series by date, a set's price list, and a card's summary by
// period. Latest prices come from PostgreSQL (materialised after every load), series from
// ClickHouse; everything in euros at the ECB reference rates.
import type { z } from 'zod';
import type { Analytics } from '../../sql/stores/analytics.js';
import type { Db } from '../../sql/stores/db.js';
import { InvalidInput, NotFound } from '../../schemas/errors.js';
import { DAY_RANGE } from '../../schemas/common.js';
import { latestFxRates } from '../../sql/market.js';
import { cardLatestPrices, cardSeriesEur, setLatestPrices } from '../../sql/priceLists.js';
import { cardExists, setExists } from '../../sql/v2Catalogue.js';
import {
  CONDITION_FACTORS,
  MAX_SERIES_DAYS,
  SUMMARY_PERIOD_DAYS,
  type CardPriceList,
  type CardPricesQuery,
  type CardSeries,
  type CardSeriesQuery,
  type CardSummary,
  type CardSummaryQuery,
  type SetPriceList,
  type SetPricesQuery,
} from '../../schemas/market.js';
import { daysAgo, resolveScope, round2 } from '../legacy/cardPriceAnalytics.js';
import { foilStatus, variantName } from '../legacy/variants.js';
import type { PrecomputedAnalytics } from '../legacy/precomputedAnalytics.js';

const DAY_MS = 86_400_000;
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** Euros per unit of each currency, from the newest reference rates (USD per unit of each). */
async function eurRates(analytics: Analytics, currencies: string[]): Promise<(currency: string, amount: number) => number | null> {
  const rows = await latestFxRates(analytics, { currencies: [...new Set(['EUR', ...currencies])] });
  const usdPer = new Map(rows.map((r) => [r.currency, r.usd_per_unit]));
  usdPer.set('USD', 1);
  const eur = usdPer.get('EUR');
  return (currency, amount) => {
    if (currency === 'EUR') return round2(amount);
    const rate = usdPer.get(currency);
    return eur && rate ? round2((amount * rate) / eur) : null;
  };
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** First, last, low, high, mean and change of a daily series in date order. */
function periodStats(values: number[]) {
  if (values.length === 0) return { days: 0, first: null, last: null, low: null, high: null, mean: null, change_pct: null };
  const first = values[0]!;
  const last = values.at(-1)!;
  return {
    days: values.length,
    first,
    last,
    low: Math.min(...values),
    high: Math.max(...values),
    mean: round2(values.reduce((a, b) => a + b, 0) / values.length),
    change_pct: first > 0 ? round2(((last - first) / first) * 100) : null,
  };
}

export function priceListService(db: Db, analytics: Analytics, precomputed: Pick<PrecomputedAnalytics, 'answer'>) {
  const scopeOf = async (cardId: number) => {
    const scope = await resolveScope(db, cardId);
    if (!scope) throw new NotFound('card');
    return scope;
  };

  /** A card's latest ungraded price per source, variant and price type. */
  const cardPrices = async (cardId: number, query: z.output<typeof CardPricesQuery>): Promise<z.input<typeof CardPriceList>> => {
    const rows = await cardLatestPrices(db, cardId, query.source ?? null, query.foil_status ?? null, query.limit, query.offset);
    if (rows.length === 0 && (await cardExists(db, cardId)).length === 0) throw new NotFound('card');
    const toEur = await eurRates(
      analytics,
      rows.map((r) => r.currency),
    );
    const factor = CONDITION_FACTORS[query.condition];
    return {
      card_id: cardId,
      condition: query.condition,
      items: rows.map((r) => ({
        variant: variantName(r.finish, r.print_run),
        foil_status: foilStatus(r.finish),
        language: r.language,
        source: r.source,
        region: r.region,
        price_type: r.price_type,
        currency: r.currency,
        amount: round2(r.amount * factor),
        amount_eur: toEur(r.currency, r.amount * factor),
        as_of: r.as_of,
      })),
      total: rows[0]?.total ?? 0,
    };
  };

  /** Days of a series request: defaults filled in, order and length checked (422 at start_date). */
  const seriesDays = (query: z.output<typeof CardSeriesQuery>) => {
    const end = query.end_date ?? daysAgo(0);
    // The default start stays within the days a price can have (DAY_RANGE).
    const start = query.start_date ?? [addDays(end, -29), DAY_RANGE.first].sort().at(-1)!;
    const span = (Date.parse(end) - Date.parse(start)) / DAY_MS + 1;
    const problem = span < 1 ? 'start_date must not be after end_date' : span > MAX_SERIES_DAYS ? `at most ${MAX_SERIES_DAYS} days` : null;
    if (problem) throw new InvalidInput([{ loc: ['query', 'start_date'], msg: problem, type: 'value_error' }]);
    return { start, end };
  };

  /** A card's daily market price in euros per source between two days. */
  const cardSeries = async (cardId: number, query: z.output<typeof CardSeriesQuery>): Promise<z.input<typeof CardSeries>> => {
    const { start, end } = seriesDays(query);
    const scope = await scopeOf(cardId);
    // From the precompute (a window inside the last 365 days; ClickHouse otherwise).
    const points = scope.selected.length
      ? await precomputed.answer(
          cardId,
          (answers) =>
            cardSeriesEur(answers, {
              card_id: cardId,
              variant_ids: scope.selected,
              start_date: start,
              end_date: end,
              source: query.source ?? '',
            }),
          ['pi_card_series'],
        )
      : [];
    return { card_id: cardId, variant: scope.variantLabel, start_date: start, end_date: end, source: query.source ?? null, points };
  };

  /** A set's cards with each variant's latest market price per source. */
  const setPrices = async (setId: number, query: z.output<typeof SetPricesQuery>): Promise<z.input<typeof SetPriceList>> => {
    const rows = await setLatestPrices(db, setId, query.source ?? null, query.variant ?? null, query.limit, query.offset);
    if (rows.length === 0 && (await setExists(db, setId)).length === 0) throw new NotFound('set');
    const toEur = await eurRates(
      analytics,
      rows.map((r) => r.currency),
    );
    return {
      set_id: setId,
      items: rows.map((r) => ({
        card_id: r.card_id,
        name: r.name,
        number: r.number,
        variant: variantName(r.finish, r.print_run),
        source: r.source,
        region: r.region,
        currency: r.currency,
        market_price: r.amount,
        market_price_eur: toEur(r.currency, r.amount),
        as_of: r.as_of,
      })),
      total: rows[0]?.total ?? 0,
    };
  };

  /** A card's price over the period up to today: per source, and the daily median across sources. */
  const cardSummary = async (cardId: number, query: z.output<typeof CardSummaryQuery>): Promise<z.input<typeof CardSummary>> => {
    const end = daysAgo(0);
    const start = addDays(end, 1 - SUMMARY_PERIOD_DAYS[query.period]);
    const series = await cardSeries(cardId, { start_date: start, end_date: end });
    const bySource = new Map<string, number[]>();
    const byDay = new Map<string, number[]>();
    const add = (groups: Map<string, number[]>, key: string, value: number) => {
      const group = groups.get(key);
      if (group) group.push(value);
      else groups.set(key, [value]);
    };
    for (const p of series.points) {
      add(bySource, p.source, p.market_price_eur);
      add(byDay, p.date, p.market_price_eur);
    }
    return {
      card_id: cardId,
      variant: series.variant,
      period: query.period,
      start_date: start,
      end_date: end,
      overall: periodStats([...byDay.values()].map((xs) => round2(median(xs)))),
      by_source: [...bySource].map(([source, values]) => ({ source, ...periodStats(values) })),
    };
  };

  return { cardPrices, cardSeries, setPrices, cardSummary };
}
