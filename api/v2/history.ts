// ClickHouse read of v2 card history.
import type { Analytics } from '../../sql/stores/analytics.js';
import { globalHistory, regionHistory } from '../../sql/v2History.js';

export const REGION_CURRENCY = { eu: 'EUR', us: 'USD', jp: 'JPY', global: 'USD' } as const;
export type Region = keyof typeof REGION_CURRENCY;

export type HistoryPoint = { date: string; amount: number; source: string; price_type: string };

export async function historyPoints(
  analytics: Analytics,
  q: { cardId: number; variantId: number; region: Region; days: number; today?: Date },
): Promise<HistoryPoint[]> {
  const today = q.today ?? new Date();
  const since = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - (q.days - 1) * 86_400_000);
  const history = q.region === 'global' ? globalHistory : regionHistory;
  const rows = await history(analytics, {
    card_id: q.cardId,
    variant_id: q.variantId,
    region: q.region,
    since: since.toISOString().slice(0, 10),
  });
  return rows.map((r) => ({ date: r.date, amount: Number(r.amount), source: r.source, price_type: r.price_type }));
}
