// Cardmarket's public downloads (downloads.s3.cardmarket.com): the daily price guide
// productCatalog/priceGuide/price_guide_<idGame>.json, read as a stream with a conditional GET.
// Prices are dated by the guide's createdAt.
// A guide entry is an idProduct and its prices, nothing else: Holo maps it to a card through the
// card's eu_marketplace_product_id cross-ref. The product list
// (productCatalog/productList/products_singles_<idGame>.json) is not fetched, since Holo has no
// use for it: its entries (idProduct, name, idCategory, idExpansion, idMetacard, dateAdded) add a
// name and Cardmarket's own expansion and metacard numbers, whereas
//   - Magic's cross-refs come from Scryfall's cardmarket_id on every card Scryfall links (the
//     catalogue sync), which the product list would only repeat;
//   - the Pokémon catalogue (pokemontcg.io / pokemon-tcg-data) carries no Cardmarket ids, and the
//     list gives a product's set only as idExpansion, a number whose names Cardmarket publishes in
//     its authenticated API, not in these downloads: a match by name would guess between the sets
//     reprinting a card. pokemontcg.io already carries each card's Cardmarket prices (its
//     cardmarket block, loaded by the pokemontcg feed as source cardmarket);
//   - Digimon (idGame 17) is in Holo as sealed products only (from products_nonsingles, the offline
//     seed), and the price pipeline prices card variants.
// So the guide is fed for the one game whose cards carry Cardmarket ids: mtg (idGame 1).
import { parseCardmarketGuide } from '../sources/cardmarketGuide.js';
import { upstreamDayRange } from '../sources/types.js';
import type { Upstream } from './http.js';
import { conditionalDocument, type FeedContext, type FeedItem, type PriceConnector } from './types.js';

/** Cardmarket's idGame of each catalogue game whose cards carry Cardmarket ids (see above). */
export const CARDMARKET_GAMES: Record<string, number> = { mtg: 1 };

export const priceGuidePath = (idGame: number) => `/productCatalog/priceGuide/price_guide_${idGame}.json`;

export const cardmarket: PriceConnector = {
  games: Object.keys(CARDMARKET_GAMES),
  async *documents(upstream: Upstream, ctx: FeedContext): AsyncGenerator<FeedItem> {
    yield* conditionalDocument(
      upstream,
      ctx,
      priceGuidePath(CARDMARKET_GAMES[ctx.game]!),
      () => (body) => parseCardmarketGuide(body, 'cardmarket', upstreamDayRange(ctx.day)),
    );
  },
};
