// A collection as numbers, the shared ground of the summary, the analytics and the public
// profile's value: a holding per variant and condition (ungraded cards, grouped per variant in
// PostgreSQL) or per graded entry, with its value from the latest prices and its variant's ungraded
// market price. The names shown are read afterwards, for the few cards, sets and games shown.
import type { Db } from '../../sql/stores/db.js';
import * as q from '../../sql/collection.js';
import { CONDITION_FACTORS } from '../../schemas/market.js';
import { CONDITIONS } from '../../schemas/marketplace.js';
import { CONDITION_FACTORS_JSON } from './entries.js';

type Condition = (typeof CONDITIONS)[number];
export type Holding = {
  variant_id: number;
  card_id: number;
  set_id: number;
  game_id: number;
  /** null: graded cards. */
  condition: Condition | null;
  quantity: number;
  /** USD; null without a price. */
  value: number | null;
  raw_price: number | null;
};

export async function holdingsOf(db: Db, userId: number): Promise<Holding[]> {
  const [ungraded, graded] = await Promise.all([
    q.ungradedByVariant(db, userId, CONDITION_FACTORS_JSON),
    q.gradedEntries(db, userId, CONDITION_FACTORS_JSON),
  ]);
  const out: Holding[] = [];
  // Literal objects in a counted loop: spreading and computed keys cost ten times more per holding.
  for (const v of ungraded) {
    const counts = [v.nm, v.lp, v.mp, v.hp, v.dmg];
    const units = [v.nm_unit, v.lp_unit, v.mp_unit, v.hp_unit, v.dmg_unit];
    for (let i = 0; i < CONDITIONS.length; i++) {
      const quantity = counts[i]!;
      if (quantity === 0) continue;
      const unit = units[i]!;
      out.push({
        variant_id: v.variant_id,
        card_id: v.card_id,
        set_id: v.set_id,
        game_id: v.game_id,
        condition: CONDITIONS[i]!,
        quantity,
        value: unit === null ? null : quantity * unit,
        raw_price: v.raw_price,
      });
    }
  }
  for (const g of graded)
    out.push({
      variant_id: g.variant_id,
      card_id: g.card_id,
      set_id: g.set_id,
      game_id: g.game_id,
      condition: null,
      quantity: g.quantity,
      value: g.value,
      raw_price: null,
    });
  return out;
}

/**
 * Per variant, the ungraded cards' weight on its market price (Σ quantity × condition factor) and
 * that price: what a change of the price changes the collection by. Graded entries count at their
 * current value (graded prices are too sparse for a history).
 */
export function ungradedWeights(holdings: Holding[]): Map<number, { weight: number; price: number; card_id: number }> {
  const out = new Map<number, { weight: number; price: number; card_id: number }>();
  for (const h of holdings) {
    if (h.condition === null || h.raw_price === null) continue;
    const v = out.get(h.variant_id) ?? { weight: 0, price: h.raw_price, card_id: h.card_id };
    v.weight += h.quantity * CONDITION_FACTORS[h.condition];
    out.set(h.variant_id, v);
  }
  return out;
}

export type Names = { card: Map<number, string>; set: Map<number, string>; game: Map<number, string> };

/** Names of cards and sets and slugs of games, in one query. */
export async function namesOf(db: Db, ids: { cards: number[]; sets: number[]; games: number[] }): Promise<Names> {
  const names: Names = { card: new Map(), set: new Map(), game: new Map() };
  if (ids.cards.length + ids.sets.length + ids.games.length === 0) return names;
  for (const row of await q.catalogueNames(db, ids.cards, ids.sets, ids.games)) names[row.kind].set(row.id, row.name);
  return names;
}

export type Share = { cards: number; value: number };

/** Cards and value of the holdings per key. */
export function sharesBy<K>(holdings: Holding[], keyOf: (h: Holding) => K): Map<K, Share> {
  const out = new Map<K, Share>();
  for (const h of holdings) {
    const key = keyOf(h);
    const share = out.get(key) ?? { cards: 0, value: 0 };
    share.cards += h.quantity;
    share.value += h.value ?? 0;
    out.set(key, share);
  }
  return out;
}

export const totalValue = (holdings: Holding[]) => holdings.reduce((sum, h) => sum + (h.value ?? 0), 0);
export const cardCount = (holdings: Holding[]) => holdings.reduce((sum, h) => sum + h.quantity, 0);
