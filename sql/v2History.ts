// v2 card history (spec: /api/v2/cards/{id}/history): one variant's daily points in a region, or
// every region converted to USD (global).
import { z } from 'zod';
import { chQuery, col } from './typedQuery.js';

const HistoryPoint = z.object({ date: col.text, amount: col.number, source: col.text, price_type: col.text });
type HistoryParams = { card_id: number; variant_id: number; region: string; since: string };
/** One region's daily median per source and price type since `since`. */
export const regionHistory = chQuery<HistoryParams, typeof HistoryPoint>('v2History/history_points', HistoryPoint);
/** Every region's daily median per source and price type, in USD at that day's rates. */
export const globalHistory = chQuery<HistoryParams, typeof HistoryPoint>('v2History/history_points_global', HistoryPoint);
