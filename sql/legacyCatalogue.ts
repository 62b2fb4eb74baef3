// ClickHouse reads of the legacy catalogue surface (its PostgreSQL reads are in api/legacy/catalogueReads.ts).
import { z } from 'zod';
import { chQuery, col } from './typedQuery.js';

const VariantChange = z.object({ variant_id: col.number, current: col.number, past: col.number });
/** Seven-day change of the reference series of the given variants. */
export const variantChange7d = chQuery<{ card_ids: number[]; variant_ids: number[] }, typeof VariantChange>(
  'variant_change_7d',
  VariantChange,
);
