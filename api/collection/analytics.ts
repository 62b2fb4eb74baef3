// Collection analytics (the spec's "collection analytics", payload ours): the portfolio's daily
// value over 30, 90 or 365 days, the cards that gained and lost most, and the value by set and by
// condition. The entries come from PostgreSQL as numbers (holdings.ts); the daily prices of their
// variants from ClickHouse, kept per variant (variantHistory.ts). Cached per user, period and collection version until new prices land.
import type { z } from 'zod';
import type { CollectionAnalytics } from '../../schemas/collection.js';
import { CONDITIONS } from '../../schemas/marketplace.js';
import { cardCount, holdingsOf, namesOf, sharesBy, totalValue, ungradedWeights, type Share } from './holdings.js';
import { changePct, collectionVersion, type CollectionDeps } from './summary.js';
import { pctChange, round2 } from '../legacy/cardPriceAnalytics.js';

type Analytics = z.infer<typeof CollectionAnalytics>;
const ANALYTICS_TTL_SECONDS = 600;
const MOVERS_SHOWN = 5;
const DAY_MS = 86_400_000;

const dateOf = (dayNumber: number) => new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);

// Cached here, not by the route's declared policy: per caller and collection version, as the
// summary is (summary.ts says why).
export async function collectionAnalytics(deps: CollectionDeps, userId: number, days: number): Promise<string> {
  const version = await collectionVersion(deps, userId);
  return deps.cache.json(`collection-analytics:${userId}:${version}:${days}`, ANALYTICS_TTL_SECONDS, () =>
    computeAnalytics(deps, userId, days),
  );
}

async function computeAnalytics(deps: Pick<CollectionDeps, 'db' | 'market'>, userId: number, days: number): Promise<Analytics> {
  const holdings = await holdingsOf(deps.db, userId);
  const weights = ungradedWeights(holdings);
  const series = await deps.market.of([...weights.keys()]);

  // The period ends on the newest day any of the collection's cards has a price (today without any).
  let to = Math.floor(Date.now() / DAY_MS);
  let newest = -1;
  for (const s of series.values()) if (s.prices.length) newest = Math.max(newest, s.first + s.prices.length - 1);
  if (newest >= 0) to = newest;
  const from = to - days + 1;

  const graded = holdings.filter((h) => h.condition === null);
  const daily = new Float64Array(days).fill(totalValue(graded));
  const byCard = new Map<number, { now: number; then: number }>();
  for (const [variantId, v] of weights) {
    const { first, prices } = series.get(variantId)!;
    if (prices.length === 0) continue;
    // Each day of the period at the variant's price that day (carried forward, and past its newest
    // day at that one); nothing before its first.
    const lastDay = first + prices.length - 1;
    const startPrice = from < first ? Number.NaN : prices[Math.min(from, lastDay) - first]!;
    for (let day = Math.max(from, first); day <= Math.min(to, lastDay); day++) {
      const p = prices[day - first]!;
      if (!Number.isNaN(p)) daily[day - from]! += v.weight * p;
    }
    const newestPrice = prices[prices.length - 1]!;
    for (let day = Math.max(from, lastDay + 1); day <= to; day++) daily[day - from]! += v.weight * newestPrice;
    if (Number.isNaN(startPrice)) continue;
    const card = byCard.get(v.card_id) ?? { now: 0, then: 0 };
    card.now += v.weight * v.price;
    card.then += v.weight * startPrice;
    byCard.set(v.card_id, card);
  }

  const moves = [...byCard].map(([cardId, c]) => ({ card_id: cardId, value: c.now, change: c.now - c.then, then: c.then }));
  const gainers = moves
    .filter((m) => round2(m.change) > 0)
    .sort((a, b) => b.change - a.change || a.card_id - b.card_id)
    .slice(0, MOVERS_SHOWN);
  const losers = moves
    .filter((m) => round2(m.change) < 0)
    .sort((a, b) => a.change - b.change || a.card_id - b.card_id)
    .slice(0, MOVERS_SHOWN);
  const sets = sharesBy(holdings, (h) => h.set_id);
  const gameOfSet = new Map(holdings.map((h) => [h.set_id, h.game_id]));
  const names = await namesOf(deps.db, {
    cards: [...gainers, ...losers].map((m) => m.card_id),
    sets: [...sets.keys()],
    games: [...new Set(gameOfSet.values())],
  });
  const mover = (m: (typeof moves)[number]) => ({
    card_id: m.card_id,
    card_name: names.card.get(m.card_id)!,
    value: round2(m.value),
    change: round2(m.change),
    change_pct: m.then > 0 ? pctChange(m.value, m.then) : null,
  });
  const byCondition = sharesBy(holdings, (h) => h.condition);
  const last = daily[days - 1]!;
  // The difference of the two values shown, to the cent (rounding the exact difference instead
  // can differ from it by a cent: 128.43 against first and last shown 128.42 apart).
  const change = round2(last) - round2(daily[0]!);
  return {
    currency: 'USD',
    days,
    from: dateOf(from),
    to: dateOf(to),
    daily_value: Array.from(daily, (value, i) => ({ date: dateOf(from + i), value: round2(value) })),
    change: round2(change),
    change_pct: changePct(change, last),
    gainers: gainers.map(mover),
    losers: losers.map(mover),
    by_set: [...sets]
      .map(([setId, share]) => ({
        set_id: setId,
        set_name: names.set.get(setId)!,
        tcg_slug: names.game.get(gameOfSet.get(setId)!)!,
        ...rounded(share),
      }))
      .sort((a, b) => b.value - a.value || a.set_id - b.set_id),
    by_condition: CONDITIONS.filter((c) => byCondition.has(c)).map((condition) => ({ condition, ...rounded(byCondition.get(condition)!) })),
    graded: rounded({ cards: cardCount(graded), value: totalValue(graded) }),
  };
}

const rounded = (s: Share): Share => ({ cards: s.cards, value: round2(s.value) });
