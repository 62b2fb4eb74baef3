// Sealed products of the legacy surface: the product rows from PostgreSQL, prices from ClickHouse.
import type { z } from 'zod';
import type { Analytics } from '../../sql/stores/analytics.js';
import type { Db } from '../../sql/stores/db.js';
import * as q from '../../sql/sealed.js';
import type { SealedPrice, SealedProduct } from '../../schemas/legacy.js';

type Price = Awaited<ReturnType<typeof q.sealedLatestPrices>>[number];

export async function sealedProducts(
  db: Db,
  analytics: Analytics,
  query: { slug: string; setId: number | null; limit: number; offset: number; productId?: number },
) {
  const rows = await q.sealedProducts(db, query.slug, query.setId, query.limit, query.offset, query.productId ?? null);
  const prices = rows.length ? await q.sealedLatestPrices(analytics, { ids: rows.map((r) => r.id) }) : [];
  const byProduct = new Map<number, Price[]>();
  for (const p of prices)
    byProduct.set(Number(p.product_id), [...(byProduct.get(Number(p.product_id)) ?? []), { ...p, amount: Number(p.amount) }]);
  const items = rows.map(
    ({
      total: _total,
      eu_marketplace_product_id: _eu,
      ...r
    }): z.input<typeof SealedProduct> & { prices: z.input<typeof SealedPrice>[] } => {
      const own = (byProduct.get(r.id) ?? []).map(({ product_id: _p, ...x }) => x);
      return {
        ...r,
        market_price_eur: own.find((p) => p.region === 'eu' && p.price_type === 'trend')?.amount ?? null,
        market_price_usd: own.find((p) => p.region === 'us' && p.price_type === 'market')?.amount ?? null,
        prices: own,
      };
    },
  );
  return { items, total: rows[0]?.total ?? 0 };
}

export async function sealedHistory(analytics: Analytics, id: number, since: string) {
  const rows = await q.sealedHistory(analytics, { id, since });
  return rows.map((r) => ({ ...r, price: Number(r.price) }));
}
