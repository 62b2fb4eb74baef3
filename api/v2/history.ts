// ClickHouse read of v2 card history and the same as an embeddable chart (each route declares its
// cache: per prices epoch, for its maxAge).
import sharp from 'sharp';
import type { z } from 'zod';
import type { Analytics } from '../../sql/stores/analytics.js';
import { globalHistory, regionHistory } from '../../sql/v2History.js';
import { v2ChartTitle } from '../../sql/v2Catalogue.js';
import type { ChartQuery, HistoryQuery, HistoryResponse } from '../../schemas/v2.js';
import type { AppDeps } from '../deps.js';
import { variantIdsOfCard } from './catalogue.js';
import { renderHistorySvg, type HistoryPoint } from './historyChart.js';
import { DomainError, NotFound } from '../../schemas/errors.js';

export const REGION_CURRENCY = { eu: 'EUR', us: 'USD', jp: 'JPY', global: 'USD' } as const;
export type Region = keyof typeof REGION_CURRENCY;

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

/**
 * The history of a card's variant (its first when none is named); 404s for an unknown card or
 * variant. Uncached here: the routes declare their cache (maxAge, `cache: true`).
 */
export async function cardHistory(
  deps: AppDeps,
  cardId: number,
  query: z.output<typeof HistoryQuery>,
): Promise<z.input<typeof HistoryResponse>> {
  const variants = await variantIdsOfCard(deps.db, cardId);
  if (!variants) throw new NotFound('card');
  const variantId = query.variant_id ?? variants[0];
  if (variantId === undefined) throw new NotFound('variant');
  if (!variants.includes(variantId)) throw new DomainError('not_found', 'variant not found for this card');
  return {
    card_id: cardId,
    variant_id: variantId,
    region: query.region,
    currency: REGION_CURRENCY[query.region],
    days: query.days,
    points: await deps.precomputed.answer(
      cardId,
      (analytics) => historyPoints(analytics, { cardId, variantId, region: query.region, days: query.days }),
      [query.region === 'global' ? 'history_points_global' : 'history_points'],
    ),
  };
}

const REGION_NAME: Record<Region, string> = { eu: 'Europe', us: 'United States', jp: 'Japan', global: 'all regions' };

/** The history chart as SVG, built from the history. */
export async function historySvg(deps: AppDeps, cardId: number, query: z.output<typeof ChartQuery>): Promise<string> {
  const history = await cardHistory(deps, cardId, query);
  const [label] = await v2ChartTitle(deps.db, cardId, history.variant_id);
  const to = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - (history.days - 1) * 86_400_000).toISOString().slice(0, 10);
  return renderHistorySvg({
    title: `${label!.name} · ${label!.set_name} ${label!.collector_number} · ${label!.variant_label} · ${REGION_NAME[history.region]}`,
    currency: history.currency,
    from,
    to,
    points: history.points,
    width: query.width,
    height: query.height,
    theme: query.theme,
  });
}

/** The same chart as PNG, rendered by sharp. */
export async function historyPng(deps: AppDeps, cardId: number, query: z.output<typeof ChartQuery>): Promise<Buffer> {
  return sharp(Buffer.from(await historySvg(deps, cardId, query)))
    .png({ compressionLevel: 9 })
    .toBuffer();
}
