// Cardmarket's public downloads (downloads.s3.cardmarket.com): the daily price guide
// productCatalog/priceGuide/price_guide_<idGame>.json (and the product list
// productCatalog/productList/products_singles_<idGame>.json, which names the products), read as a
// stream with a conditional GET. Prices are dated by the guide's createdAt.
import { parseCardmarketGuide } from '../sources/cardmarketGuide.js';
import type { Upstream } from './http.js';
import { conditionalDocument, type FeedContext, type FeedItem, type PriceConnector } from './types.js';

/** Cardmarket's idGame of each catalogue game it prices. */
export const CARDMARKET_GAMES: Record<string, number> = { mtg: 1, pokemon: 6 };

export const priceGuidePath = (idGame: number) => `/productCatalog/priceGuide/price_guide_${idGame}.json`;
export const productListPath = (idGame: number) => `/productCatalog/productList/products_singles_${idGame}.json`;

export const cardmarket: PriceConnector = {
  games: ['mtg'],
  async *documents(upstream: Upstream, ctx: FeedContext): AsyncGenerator<FeedItem> {
    yield* conditionalDocument(upstream, ctx, priceGuidePath(CARDMARKET_GAMES[ctx.game]!), () => (body) => parseCardmarketGuide(body));
  },
};
