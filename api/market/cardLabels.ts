// The card names every market list shows beside its figures (PostgreSQL), and how a list names a card.
import type { Db } from '../../sql/stores/db.js';
import { cardLabels, type CardLabel } from '../../sql/market.js';

export type { CardLabel };

/** The labels of the cards, by id (a card no longer in the catalogue has none). */
export async function labelsOf(db: Db, ids: number[]): Promise<Map<number, CardLabel>> {
  const rows = ids.length ? await cardLabels(db, ids) : [];
  return new Map(rows.map((r) => [r.card_id, r]));
}

/** A card as market lists name it. */
export const presentCardLabel = (l: CardLabel) => ({ card_id: l.card_id, name: l.name, set_name: l.set_name, tcg_slug: l.tcg_slug });
