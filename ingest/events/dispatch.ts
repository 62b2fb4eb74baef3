// What a price load sets off besides the WebSocket stream: alerts that the new prices cross are
// triggered (once), each becomes a notification, an outbox e-mail, pushes and webhook
// deliveries; wishlist thresholds the prices fall under notify (once while they stay under);
// endpoints watching the priced cards get price.updated. Deliveries are rows first,
// then Temporal workflows; a delivery whose workflow could not be started is started by the
// next dispatch.
import type pg from 'pg';
import { endpointsForPriceUpdates } from '../../sql/webhooks.js';
import { crossWishlistThresholds, type CrossedWish } from '../../sql/wishlist.js';
import { pgTransaction } from '../../sql/stores/db.js';
import type { Logger } from '../../sql/runtime/log.js';
import type { PriceUpdate } from '../../schemas/stream.js';
import { BUSINESS_TIERS } from '../../schemas/tiers.js';
import { cardsWithArmedAlerts, triggerCrossedAlerts, type TriggeredAlert } from './alertTriggers.js';
import { recordNotice } from './notify.js';
import { endpointsFor, eventId, markStarted, queueDeliveries, unstartedDeliveries, type WebhookEvent } from './webhookDeliveries.js';

export type DispatchDeps = {
  pool: pg.Pool;
  log: Logger;
  /** Starts the delivery workflow of each id (idempotent per id). */
  startDeliveries(ids: number[]): Promise<unknown>;
};

/** pushes: queued in push_outbox, for the caller to start the outbox workflow after. */
export type DispatchResult = { triggered: number; deliveries: number; started: number; pushes: number };

/** Every update also in each other currency it can be converted to (US dollars per unit of each). */
export function inEveryCurrency(updates: PriceUpdate[], usdPerUnit: Record<string, number>): PriceUpdate[] {
  const out: PriceUpdate[] = [];
  for (const u of updates) {
    out.push(u);
    const from = u.currency === 'USD' ? 1 : usdPerUnit[u.currency];
    if (!from) continue;
    for (const [currency, rate] of Object.entries({ USD: 1, ...usdPerUnit })) {
      if (currency !== u.currency && rate > 0)
        out.push({ card_id: u.card_id, currency, market_price: Math.round(((u.market_price * from) / rate) * 10_000) / 10_000 });
    }
  }
  return out;
}

const alertEvent = (a: TriggeredAlert): WebhookEvent => ({
  id: eventId(`price.alert.triggered:${a.id}:${a.triggered_at}`),
  type: 'price.alert.triggered',
  created_at: a.triggered_at!,
  data: {
    card_id: a.card_id,
    market_price: a.market_price,
    currency: a.currency,
    card_name: a.card_name,
    alert_id: a.id,
    target_price: a.target_price,
    condition: a.condition,
  },
});

function alertText(a: TriggeredAlert): { title: string; body: string } {
  const direction = a.condition === 'below' ? 'fell to' : 'rose to';
  return {
    title: `${a.card_name}: ${a.currency} ${a.market_price.toFixed(2)}`,
    body: `${a.card_name} ${direction} ${a.currency} ${a.market_price.toFixed(2)}, crossing your ${a.condition} ${a.currency} ${a.target_price.toFixed(2)} alert.`,
  };
}

function wishText(w: CrossedWish): { title: string; body: string } {
  return {
    title: `${w.card_name}: USD ${w.price.toFixed(2)}`,
    body: `${w.card_name} is at USD ${w.price.toFixed(2)}, within the USD ${w.max_price.toFixed(2)} on your wishlist.`,
  };
}

export async function dispatchPriceEvents(
  deps: DispatchDeps,
  run: { batchId: string; updates: PriceUpdate[]; usdPerUnit: Record<string, number> },
): Promise<DispatchResult> {
  let deliveries = 0;
  let pushes = 0;
  const { triggered } = await pgTransaction(deps.pool, async (client) => {
    const watched = await cardsWithArmedAlerts(
      client,
      run.updates.map((u) => u.card_id),
    );
    const crossed = await triggerCrossedAlerts(
      client,
      inEveryCurrency(
        run.updates.filter((u) => watched.has(u.card_id)),
        run.usdPerUnit,
      ),
    );
    const endpoints = await endpointsFor(client, 'price.alert.triggered', [...new Set(crossed.map((a) => a.user_id))]);
    const queue: { endpointId: number; event: WebhookEvent }[] = [];
    for (const a of crossed) {
      const text = alertText(a);
      pushes += (
        await recordNotice(client, {
          userId: a.user_id,
          kind: 'price_alert',
          ...text,
          data: { alert_id: a.id, card_id: a.card_id, market_price: a.market_price, currency: a.currency },
          email:
            a.email && a.email_alerts
              ? { to: a.email, subject: `Price alert: ${text.title}`, text: `${text.body}\n\nManage your alerts in your Holo account.` }
              : null,
        })
      ).pushes;
      for (const e of endpoints) if (e.user_id === a.user_id) queue.push({ endpointId: e.id, event: alertEvent(a) });
    }
    deliveries += await queueDeliveries(client, queue);
    // Wishlist thresholds (USD, the market price's currency): once when the price falls to or under one.
    const usd = run.updates.filter((u) => u.currency === 'USD');
    const wishes = usd.length
      ? await crossWishlistThresholds(
          client,
          usd.map((u) => u.card_id),
          usd.map((u) => u.market_price),
        )
      : [];
    for (const w of wishes) {
      const text = wishText(w);
      pushes += (
        await recordNotice(client, {
          userId: w.user_id,
          kind: 'wishlist',
          ...text,
          data: { wishlist_item_id: w.id, card_id: w.card_id, market_price: w.price, currency: 'USD' },
          email:
            w.email && w.email_alerts
              ? { to: w.email, subject: `Wishlist: ${text.title}`, text: `${text.body}\n\nSee your wishlist in your Holo account.` }
              : null,
        })
      ).pushes;
    }
    return { triggered: crossed };
  });
  deliveries += await queuePriceUpdated(deps.pool, run.batchId, run.updates);
  // A start that fails (Temporal unreachable) leaves the rows unstarted for the next dispatch,
  // rather than failing the price load that set them off.
  // Page by page until none is left: a load that sets off more deliveries than one page must not
  // leave the rest waiting for the next load.
  let started = 0;
  for (let pending = await unstartedDeliveries(deps.pool); pending.length; pending = await unstartedDeliveries(deps.pool)) {
    try {
      await deps.startDeliveries(pending);
      await markStarted(deps.pool, pending);
      started += pending.length;
    } catch (err) {
      deps.log.warn('webhook deliveries not started yet; the next dispatch retries', { pending: pending.length, error: String(err) });
      break;
    }
  }
  return { triggered: triggered.length, deliveries, started, pushes };
}

/** price.updated for every endpoint that watches a card of this run: one event per card. */
async function queuePriceUpdated(pool: pg.Pool, batchId: string, updates: PriceUpdate[]): Promise<number> {
  if (updates.length === 0) return 0;
  // The same endpoints endpointsFor admits (active, Business tier, account not deleted), watching a card of this run.
  const rows = await endpointsForPriceUpdates(
    pool,
    updates.map((u) => u.card_id),
    BUSINESS_TIERS,
  );
  const byCard = new Map(updates.map((u) => [u.card_id, u]));
  const now = new Date().toISOString();
  const queue = rows.flatMap((endpoint) =>
    endpoint.cards.map((card) => {
      const u = byCard.get(card)!;
      const event: WebhookEvent = {
        id: eventId(`price.updated:${batchId}:${card}`),
        type: 'price.updated',
        created_at: now,
        data: { card_id: card, market_price: u.market_price, currency: u.currency },
      };
      return { endpointId: endpoint.id, event };
    }),
  );
  return queueDeliveries(pool, queue);
}
