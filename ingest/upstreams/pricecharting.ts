// PriceCharting (www.pricecharting.com/api-documentation): the subscriber's price-guide CSV,
// GET /price-guide/download-custom?t=<HOLO_PRICECHARTING_TOKEN>&category=<category>, read as a
// stream with a conditional GET. The CSV has no date: its Last-Modified, else the run's day.
import { parsePriceChartingCsv } from '../sources/priceChartingCsv.js';
import type { Upstream } from './http.js';
import { conditionalDocument, dayOf, type FeedContext, type FeedItem, type PriceConnector } from './types.js';

/** PriceCharting's category of each catalogue game's cards, and the word its console-name puts before a set's name. */
export const PRICE_GUIDE_CATEGORIES: Record<string, { category: string; consolePrefix: string }> = {
  pokemon: { category: 'pokemon-cards', consolePrefix: 'Pokemon ' },
  lorcana: { category: 'lorcana-cards', consolePrefix: 'Lorcana ' },
};

export const priceGuideCsvPath = (token: string, category: string) =>
  `/price-guide/download-custom?t=${encodeURIComponent(token)}&category=${encodeURIComponent(category)}`;

export const pricecharting: PriceConnector = {
  games: Object.keys(PRICE_GUIDE_CATEGORIES),
  async *documents(upstream: Upstream, ctx: FeedContext): AsyncGenerator<FeedItem> {
    const { category, consolePrefix } = PRICE_GUIDE_CATEGORIES[ctx.game]!;
    const token = upstream.credential('HOLO_PRICECHARTING_TOKEN') ?? '';
    yield* conditionalDocument(upstream, ctx, priceGuideCsvPath(token, category), (res) => {
      const day = dayOf(res.headers.get('last-modified'), ctx);
      return (body) => parsePriceChartingCsv(body, day, { game: ctx.game, consolePrefix });
    });
  },
};
