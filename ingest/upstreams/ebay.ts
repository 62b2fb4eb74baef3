// eBay's Marketplace Insights API (developer.ebay.com/api-docs/buy/marketplace-insights; limited
// release: the keyset must be approved for it): an application token from POST
// /identity/v1/oauth2/token (client credentials, HTTP Basic with HOLO_EBAY_CLIENT_ID and _SECRET,
// scope buy.marketplace.insights), then one sold-items search per watched card,
// GET /buy/marketplace_insights/v1_beta/item_sales/search?q=<name number set>&category_ids=183454
// &limit=200, following `next` while the sales seen are fewer than `total` (90 days of sales).
// Each sale is dated by its lastSoldDate (in UTC), within the days ingest/sources/types.ts allows.
import { watchedCardRefs } from '../../sql/priceLoads.js';
import { parseItemSales, type ItemSalesPage } from '../sources/auctionSold.js';
import { upstreamDayRange } from '../sources/types.js';
import { BearerToken, type Upstream } from './http.js';
import { documentOf, type FeedContext, type FeedItem, type PriceConnector } from './types.js';

export const EBAY_SCOPE = 'https://api.ebay.com/oauth/api_scope/buy.marketplace.insights';
/** eBay's category of individual collectible card game cards (CCG Individual Cards). */
export const EBAY_CCG_CARDS = '183454';
export const EBAY_PAGE_LIMIT = 200;
export const ITEM_SALES_PATH = '/buy/marketplace_insights/v1_beta/item_sales/search';

const tokens = new WeakMap<Upstream, BearerToken>();

function tokenOf(upstream: Upstream): BearerToken {
  let token = tokens.get(upstream);
  if (!token) {
    const basic = Buffer.from(
      `${upstream.credential('HOLO_EBAY_CLIENT_ID') ?? ''}:${upstream.credential('HOLO_EBAY_CLIENT_SECRET') ?? ''}`,
    ).toString('base64');
    token = new BearerToken(() =>
      upstream.json('/identity/v1/oauth2/token', {
        method: 'POST',
        headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: EBAY_SCOPE }).toString(),
      }),
    );
    tokens.set(upstream, token);
  }
  return token;
}

/** The search words for a card: its name, collector number and set name. */
export const saleSearchWords = (card: { name: string; number: string; set_name: string }) => `${card.name} ${card.number} ${card.set_name}`;

const wordsOf = (text: string) => text.toLowerCase().split(/\s+/).filter(Boolean);
const holds = (title: string[], phrase: string[]) => title.some((_, i) => phrase.length > 0 && phrase.every((w, j) => title[i + j] === w));

/**
 * Whether a sale a keyword search found is the card's: its title holds the card's words in order,
 * and no longer phrase of another watched card does ("Charizard 4 Base" also matches the titles
 * of "Charizard 4 Base Set 2"; the more specific card claims those sales).
 */
export function saleBelongsTo(card: string, watched: string[]): (title: string) => boolean {
  const own = wordsOf(card);
  const longer = watched.map(wordsOf).filter((p) => p.length > own.length);
  return (title) => {
    const words = wordsOf(title);
    return holds(words, own) && !longer.some((p) => holds(words, p));
  };
}

export const ebay: PriceConnector = {
  games: ['pokemon'],
  async *documents(upstream: Upstream, ctx: FeedContext): AsyncGenerator<FeedItem> {
    const token = tokenOf(upstream);
    const cards = await watchedCardRefs(ctx.pool, ctx.game);
    const phrases = cards.map(saleSearchWords);
    const days = upstreamDayRange(ctx.day);
    for (const card of cards) {
      const ref = { kind: 'pokemontcg_id' as const, value: card.ref };
      const belongs = saleBelongsTo(saleSearchWords(card), phrases);
      const query = new URLSearchParams({
        q: saleSearchWords(card),
        category_ids: EBAY_CCG_CARDS,
        limit: String(EBAY_PAGE_LIMIT),
        offset: '0',
      });
      let next: string | null = `${ITEM_SALES_PATH}?${query.toString()}`;
      let seen = 0;
      while (next) {
        const res = await upstream.fetch(next, {
          headers: { Authorization: `Bearer ${await token.value()}`, 'X-EBAY-C-MARKETPLACE-ID': 'EBAY_US', Accept: 'application/json' },
        });
        let read: ItemSalesPage | null = null;
        yield documentOf(res, async (body) => (read = await parseItemSales(body, ref, belongs, days)));
        const page = read as ItemSalesPage | null;
        if (!page) throw new Error('eBay: a page was not read before the next was asked for');
        seen += page.sales;
        next = page.next && page.total !== null && seen < page.total ? page.next : null;
      }
    }
  },
};
