// Re-running the cross-source correlation on an operator's request: which card it is about.
import type { Db } from '../../sql/stores/db.js';
import { cardExists } from '../../sql/v2Catalogue.js';
import { NotFound } from '../../schemas/errors.js';

/** 404 unless the card exists (before a correlation run is started for it). */
export async function requireCorrelatedCard(db: Db, cardId: number): Promise<void> {
  if ((await cardExists(db, cardId)).length === 0) throw new NotFound('card');
}
