// The market service (spec: "Market intelligence, price intelligence"): movers, the market index,
// trend predictions, FX and one card's price intelligence, computed from the typed queries of
// sql/market.ts and the formulas of the legacy price analytics. Route handlers call it.
import type { Analytics } from '../../sql/stores/analytics.js';
import type { Db } from '../../sql/stores/db.js';
import { cardLabels, latestFxRates, marketIndex, marketMovers, trendingCards, type MoverTuple } from '../../sql/market.js';
import { NotFound } from '../../schemas/errors.js';
import { CONDITION_FACTORS } from '../../schemas/market.js';
import { confidenceOf, marketVerdict, resolveScope, round2, sourceMedians, RAW, type CardScope } from '../legacy/cardPriceAnalytics.js';
import { foilStatus } from '../legacy/variants.js';

export type MarketService = ReturnType<typeof marketService>;

export function marketService({ db, analytics }: { db: Db; analytics: Analytics }) {
  const labels = async (ids: number[]) => {
    const rows = ids.length ? await cardLabels(db, ids) : [];
    return new Map(rows.map((r) => [r.card_id, r]));
  };
  const movers = async (game: string, days: number, limit: number) => {
    const [row] = await marketMovers(analytics, { game, days, limit });
    const lists = { gainers: row?.gainers ?? [], losers: row?.losers ?? [], most_volatile: row?.most_volatile ?? [] };
    const names = await labels([
      ...new Set(
        Object.values(lists)
          .flat()
          .map((r) => Number(r[0])),
      ),
    ]);
    const shape = (rows: MoverTuple[]) =>
      rows.flatMap(([id, current, abs, pct, vol]) => {
        const l = names.get(Number(id));
        return l
          ? [
              {
                card_id: l.card_id,
                name: l.name,
                set_name: l.set_name,
                tcg_slug: l.tcg_slug,
                current_price: round2(current),
                change_pct: round2(pct),
                change_abs: round2(abs),
                volatility_pct: round2(vol * 100),
              },
            ]
          : [];
      });
    return {
      as_of: row?.newest_day && row.newest_day !== '1970-01-01' ? row.newest_day : null,
      gainers: shape(lists.gainers),
      losers: shape(lists.losers),
      most_volatile: shape(lists.most_volatile),
    };
  };
  const marketIndexes = async (days: number) => {
    const rows = await marketIndex(analytics, { days });
    return rows.map((r) => ({
      tcg_slug: r.game,
      newest_day: r.newest_day,
      series: Number(r.series),
      cards: Number(r.cards),
      value_now: round2(r.value_now),
      value_then: round2(r.value_then),
      change_pct: r.value_then > 0 ? round2(((r.value_now - r.value_then) / r.value_then) * 100) : null,
      rising: Number(r.rising),
      falling: Number(r.falling),
      holding: Number(r.holding),
    }));
  };
  const trending = async (q: { game: string; days: number; minPoints: number; ahead: number; direction: 1 | -1; limit: number }) => {
    const rows = await trendingCards(analytics, {
      game: q.game,
      days: q.days,
      min_points: q.minPoints,
      ahead: q.ahead,
      direction: q.direction,
      limit: q.limit,
    });
    const names = await labels(rows.map((r) => Number(r.card_id)));
    return rows.flatMap((r) => {
      const l = names.get(Number(r.card_id));
      if (!l) return [];
      const points = Number(r.points);
      return [
        {
          card_id: l.card_id,
          name: l.name,
          set_name: l.set_name,
          tcg_slug: l.tcg_slug,
          current_price: round2(r.current),
          predicted_price: round2(r.predicted),
          predicted_change_pct: round2(r.predicted_change_pct),
          slope_per_day: Math.round(r.slope_per_day * 10000) / 10000,
          data_points: points,
          confidence: confidenceOf(points),
        },
      ];
    });
  };
  const fxLatest = async (currencies: string[]) => {
    const rows = await latestFxRates(analytics, { currencies });
    return new Map(rows.map((r) => [r.currency, r]));
  };
  const priceIntelligence = async (
    cardId: number,
    q: {
      foil_status: 'nonfoil' | 'foil' | 'etched';
      condition: keyof typeof CONDITION_FACTORS;
      language: string;
      printing: 'unlimited' | '1st_edition';
    },
  ) => {
    const scope = await resolveScope(db, cardId, undefined, q.language);
    if (!scope) throw new NotFound('card');
    const printRun = q.printing === '1st_edition' ? '1st-edition' : 'unlimited';
    const variants = scope.variants.filter(
      (v) => v.language === q.language && foilStatus(v.finish) === q.foil_status && v.print_run === printRun,
    );
    const picked: CardScope = { ...scope, selected: variants.map((v) => v.id) };
    const [sources, fx] = await Promise.all([picked.selected.length ? sourceMedians(analytics, picked, RAW, 30) : [], fxLatest(['EUR'])]);
    const eur = fx.get('EUR');
    const factor = CONDITION_FACTORS[q.condition];
    const toEur = (usd: number) => round2((usd / eur!.usd_per_unit) * factor);
    const verdict = eur ? marketVerdict(sources) : null;
    const breakdown = eur ? sources.map((s) => ({ source: s.source, median_eur: toEur(s.median), n_listings: s.sample_size })) : [];
    const notes: string[] = [];
    if (variants.length === 0) notes.push(`no ${q.printing} ${q.foil_status} variant in ${q.language}`);
    if (!eur) notes.push('no euro reference rate loaded yet');
    if (verdict?.region_bias !== null && verdict?.region_bias !== undefined && Math.abs(verdict.region_bias) >= 10)
      notes.push(`European sources sit ${Math.abs(verdict.region_bias)} % ${verdict.region_bias > 0 ? 'above' : 'below'} US sources`);
    if (verdict && verdict.agreeing_sources < verdict.considered_sources)
      notes.push(
        `${verdict.considered_sources - verdict.agreeing_sources} of ${verdict.considered_sources} sources disagree by more than 15 %`,
      );
    if (factor !== 1) notes.push(`${q.condition} prices are the near-mint references × ${factor}`);
    return {
      card_id: cardId,
      price_summary: {
        market_price_eur: verdict ? toEur(verdict.price) : null,
        low_eur: breakdown.length ? Math.min(...breakdown.map((b) => b.median_eur)) : null,
        high_eur: breakdown.length ? Math.max(...breakdown.map((b) => b.median_eur)) : null,
        confidence: verdict?.confidence ?? ('low' as const),
      },
      source_breakdown: breakdown,
      correlation_notes: notes,
      scope: {
        variants: variants.map((v) => v.name),
        condition: q.condition,
        condition_factor: factor,
        eur_per_usd: eur ? round2(1 / eur.usd_per_unit) : null,
        fx_date: eur?.day ?? null,
      },
      name: scope.card.name,
    };
  };
  return { labels, movers, marketIndexes, trending, fxLatest, priceIntelligence };
}
