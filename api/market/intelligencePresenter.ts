// Shapes what the price intelligence service (intelligence.ts) returns into the routes' responses (schemas/market.ts).
import type { z } from 'zod';
import { round2 } from '../legacy/cardPriceAnalytics.js';
import type {
  FxQuery,
  FxRate,
  PriceIntelligenceCard,
  PriceIntelligenceCompare,
  PriceIntelligenceHistory,
  PriceIntelligenceHistoryQuery,
  PriceIntelligenceSearch,
} from '../../schemas/market.js';
import type { CardIntelligence, compareOf, fxRateOf, intelligenceHistoryOf, searchOf } from './intelligence.js';

type Of<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

export function presentCardIntelligence(c: CardIntelligence): z.input<typeof PriceIntelligenceCard> {
  const { eur, correlation } = c;
  return {
    card_id: c.card_id,
    price_summary: {
      market_price_eur: c.market_price_eur,
      low_eur: c.breakdown.length ? Math.min(...c.breakdown.map((b) => b.median_eur)) : null,
      high_eur: c.breakdown.length ? Math.max(...c.breakdown.map((b) => b.median_eur)) : null,
      confidence: c.confidence,
    },
    source_breakdown: c.breakdown,
    correlation_notes: c.notes,
    scope: {
      variants: c.variants,
      condition: c.condition,
      condition_factor: c.factor,
      eur_per_usd: eur ? round2(1 / eur.usd_per_unit) : null,
      fx_date: eur?.day ?? null,
    },
    correlation: correlation
      ? {
          correlated_at: correlation.correlated_at,
          consensus_usd: correlation.consensus_usd,
          confidence: correlation.confidence,
          agreeing_sources: correlation.agreeing_sources,
          considered_sources: correlation.considered_sources,
          disagreeing: correlation.disagreeing,
        }
      : null,
  };
}

export const presentCompare = ({ items, missing }: Of<typeof compareOf>): z.input<typeof PriceIntelligenceCompare> => ({
  items: items.map((c) => ({ ...presentCardIntelligence(c), name: c.name })),
  missing,
});

export const presentIntelligenceHistory = (
  { card_id, points }: Of<typeof intelligenceHistoryOf>,
  query: z.output<typeof PriceIntelligenceHistoryQuery>,
): z.input<typeof PriceIntelligenceHistory> => ({
  card_id,
  days: query.days,
  points: points.map((p) => ({ date: p.date, market_price_eur: Number(p.market_price_eur) })),
});

export const presentSearch = ({ total, cards }: Of<typeof searchOf>): z.input<typeof PriceIntelligenceSearch> => ({
  total,
  items: cards.map((r) => ({ card_id: r.id, name: r.name, set_name: r.set_name, tcg_slug: r.tcg_slug, market_price_eur: r.price_eur })),
});

export const presentFxRate = ({ rate, date }: Of<typeof fxRateOf>, query: z.output<typeof FxQuery>): z.input<typeof FxRate> => ({
  from_currency: query.from_currency,
  to_currency: query.to_currency,
  rate,
  date,
  source: 'ecb' as const,
});
