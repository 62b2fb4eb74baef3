// Price intelligence of one card or a few (spec: "Price intelligence"): euro prices from every
// source by finish, printing, language and condition, the verdict across sources and the notes on
// where they disagree; daily euro history, search with euro prices, and ECB reference rates.
// intelligencePresenter.ts shapes what these return.
import type { z } from 'zod';
import { cardHistoryEur, latestFxRates } from '../../sql/market.js';
import { sourceAgreementOf } from '../../sql/correlation.js';
import { searchCards } from '../legacy/catalogueReads.js';
import { foilStatus } from '../legacy/variants.js';
import { daysAgo, resolveScope, round2, sourceMedians, RAW, type CardScope } from '../legacy/cardPriceAnalytics.js';
import { marketVerdict } from '../../ingest/normalise/marketVerdict.js';
import { DomainError, NotFound } from '../../schemas/errors.js';
import {
  CONDITION_FACTORS,
  type FxQuery,
  type PriceIntelligenceCardQuery,
  type PriceIntelligenceCompareQuery,
  type PriceIntelligenceHistoryQuery,
  type PriceIntelligenceSearchQuery,
} from '../../schemas/market.js';
import type { MarketDeps } from './movers.js';

async function fxLatest({ analytics }: MarketDeps, currencies: string[]) {
  const rows = await latestFxRates(analytics, { currencies });
  return new Map(rows.map((r) => [r.currency, r]));
}

/** One card's euro prices, verdict and notes for one finish, printing, language and condition. */
export async function cardIntelligenceOf(deps: MarketDeps, cardId: number, q: z.output<typeof PriceIntelligenceCardQuery>) {
  const { db, analytics } = deps;
  const scope = await resolveScope(db, cardId, undefined, q.language);
  if (!scope) throw new NotFound('card');
  const printRun = q.printing === '1st_edition' ? '1st-edition' : 'unlimited';
  const variants = scope.variants.filter(
    (v) => v.language === q.language && foilStatus(v.finish) === q.foil_status && v.print_run === printRun,
  );
  const picked: CardScope = { ...scope, selected: variants.map((v) => v.id) };
  const [sources, fx, [correlation]] = await Promise.all([
    picked.selected.length ? sourceMedians(analytics, picked, RAW, 30) : [],
    fxLatest(deps, ['EUR']),
    sourceAgreementOf(db, cardId),
  ]);
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
  for (const off of correlation?.disagreeing ?? [])
    notes.push(
      `correlation of ${correlation!.correlated_at.slice(0, 10)}: ${off.source} sits ${Math.abs(off.delta_pct)} % ${off.delta_pct > 0 ? 'above' : 'below'} the consensus`,
    );
  return {
    card_id: cardId,
    name: scope.card.name,
    market_price_eur: verdict ? toEur(verdict.price) : null,
    confidence: verdict?.confidence ?? ('low' as const),
    breakdown,
    notes,
    variants: variants.map((v) => v.name),
    condition: q.condition,
    factor,
    eur,
    correlation,
  };
}

export type CardIntelligence = Awaited<ReturnType<typeof cardIntelligenceOf>>;

/** Up to five cards side by side (near mint, non-foil, unlimited, English), and the ids of those not found. */
export async function compareOf(deps: MarketDeps, query: z.output<typeof PriceIntelligenceCompareQuery>) {
  const items: CardIntelligence[] = [];
  const missing: number[] = [];
  for (const id of query.ids) {
    try {
      items.push(await cardIntelligenceOf(deps, id, { foil_status: 'nonfoil', condition: 'NM', language: 'en', printing: 'unlimited' }));
    } catch (err) {
      if (!(err instanceof NotFound)) throw err;
      missing.push(id);
    }
  }
  return { items, missing };
}

/** The card's reference variant's daily market price in euros (median across sources). */
export async function intelligenceHistoryOf({ db, analytics }: MarketDeps, query: z.output<typeof PriceIntelligenceHistoryQuery>) {
  const scope = await resolveScope(db, query.card_id);
  if (!scope) throw new NotFound('card');
  const points = await cardHistoryEur(analytics, { card_id: scope.card.id, variant_ids: scope.selected, since: daysAgo(query.days - 1) });
  return { card_id: scope.card.id, points };
}

/** Cards matching the search, each with its best reference price in euros (null without a euro rate). */
export async function searchOf(deps: MarketDeps, query: z.output<typeof PriceIntelligenceSearchQuery>) {
  const [rows, fx] = await Promise.all([searchCards(deps.db, { q: query.q, limit: query.limit, offset: 0 }), fxLatest(deps, ['EUR'])]);
  const eur = fx.get('EUR');
  return {
    total: rows[0]?.total ?? 0,
    cards: rows.map((r) => ({ ...r, price_eur: r.best_price !== null && eur ? round2(r.best_price / eur.usd_per_unit) : null })),
  };
}

/** The newest ECB rate between two currencies (to 6 decimals) and the older of their two days. */
export async function fxRateOf(deps: MarketDeps, query: z.output<typeof FxQuery>) {
  const fx = await fxLatest(deps, [query.from_currency, query.to_currency]);
  const [from, to] = [fx.get(query.from_currency), fx.get(query.to_currency)];
  if (!from || !to) throw new DomainError('not_found', `no reference rate for ${!from ? query.from_currency : query.to_currency}`);
  return { rate: Math.round((from.usd_per_unit / to.usd_per_unit) * 1e6) / 1e6, date: from.day < to.day ? from.day : to.day };
}
