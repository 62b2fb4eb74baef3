// pokemontcg.io v2 (docs.pokemontcg.io): every card of the catalogue paged through GET /v2/cards
// (pageSize 250, the most it allows; page 1, 2, … until the cards seen reach totalCount, so no
// empty page is ever asked for, and a total that shrinks between pages ends the paging there),
// only the fields priced (select=id,tcgplayer,cardmarket), X-Api-Key on every request when
// HOLO_POKEMONTCG_API_KEY is set (without it the API allows 1,000 requests a day). Prices are dated
// by each block's updatedAt, within the days ingest/sources/types.ts allows.
import { parsePokemontcgIo, type CardsPage } from '../sources/pokemontcgIo.js';
import { upstreamDayRange } from '../sources/types.js';
import type { Upstream } from './http.js';
import { documentOf, type FeedContext, type FeedItem, type PriceConnector } from './types.js';

export const POKEMONTCG_PAGE_SIZE = 250;

export const apiKeyHeader = (upstream: Upstream): Record<string, string> => {
  const key = upstream.credential('HOLO_POKEMONTCG_API_KEY');
  return key ? { 'X-Api-Key': key } : {};
};

export const pokemontcg: PriceConnector = {
  games: ['pokemon'],
  async *documents(upstream: Upstream, ctx: FeedContext): AsyncGenerator<FeedItem> {
    const days = upstreamDayRange(ctx.day);
    let seen = 0;
    for (let page = 1; ; page++) {
      const res = await upstream.fetch(`/v2/cards?page=${page}&pageSize=${POKEMONTCG_PAGE_SIZE}&select=id,tcgplayer,cardmarket`, {
        headers: { ...apiKeyHeader(upstream), Accept: 'application/json' },
      });
      let read: CardsPage | null = null;
      yield documentOf(res, async (body, stage) => (read = await parsePokemontcgIo(body, stage, days)));
      const done = read as CardsPage | null;
      if (!done) throw new Error('pokemontcg.io: a page was not read before the next was asked for');
      seen += done.count ?? 0;
      if (!done.count || done.totalCount === null || seen >= done.totalCount) return;
    }
  },
};
