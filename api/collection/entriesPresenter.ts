// Shapes a collection entry with its value into the response's entry (schemas/collection.ts): the
// variant named, the value of the quantity rounded to cents, its picture's URL.
import type { z } from 'zod';
import type * as q from '../../sql/collection.js';
import type { CollectionEntry, CollectionPage } from '../../schemas/collection.js';
import { variantName } from '../legacy/variants.js';
import { round2 } from '../legacy/cardPriceAnalytics.js';
import { cardImageUrl } from '../images/urls.js';

type Entry = z.infer<typeof CollectionEntry>;

export function presentEntry(row: q.EntryValueRow): Entry {
  return {
    id: row.id,
    card_id: row.card_id,
    card_name: row.card_name,
    tcg_slug: row.tcg_slug,
    set_name: row.set_name,
    quantity: row.quantity,
    condition: row.condition,
    variant: variantName(row.finish, row.print_run),
    price_paid: row.price_paid,
    graded: row.graded,
    grading_company: row.grading_company,
    grade: row.grade,
    unit_value: row.unit_value,
    current_value: row.unit_value === null ? null : round2(row.unit_value * row.quantity),
    image_url: cardImageUrl(row.card_id, 'small'),
    added_at: row.added_at,
  };
}

export const presentEntryPage = ({ items, total }: { items: q.EntryValueRow[]; total: number }): z.infer<typeof CollectionPage> => ({
  items: items.map(presentEntry),
  total,
});
