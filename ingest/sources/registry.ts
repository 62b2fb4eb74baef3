// The price feeds Holo ingests: which documents make up one (source, game, day) feed, relative to
// the feeds base URL, and the parser of each. Most feeds are one document per game and day; the
// auction feed is one search per watched card, as the upstream's API works.
import { watchedCardRefs } from '../../sql/priceLoads.js';
import type pg from 'pg';
import { parseAuctionSold } from './auctionSold.js';
import { parseCardmarketGuide } from './cardmarketGuide.js';
import { parsePokemontcgIo } from './pokemontcgIo.js';
import { parsePriceChartingCsv } from './priceChartingCsv.js';
import { parseScryfallPrices } from './scryfallPrices.js';
import { parseTcgplayerPricing } from './tcgplayerPricing.js';
import type { ParseResult, SourceRow } from './types.js';

export type FeedDocument = { path: string; ref?: SourceRow['ref'] };
export type FeedContext = { pool: pg.Pool; game: string; day: string };

export type FeedSpec = {
  games: string[];
  documents(ctx: FeedContext): Promise<FeedDocument[]>;
  parse(body: string, ctx: { game: string; day: string; ref?: SourceRow['ref'] }): ParseResult;
};

const single = (path: (game: string, day: string) => string) => async (ctx: FeedContext) => [{ path: path(ctx.game, ctx.day) }];

async function watchedCards(ctx: FeedContext): Promise<FeedDocument[]> {
  const rows = await watchedCardRefs(ctx.pool, ctx.game);
  return rows.map((r) => ({
    path: `/feeds/ebay/${ctx.game}/${ctx.day}/${encodeURIComponent(r.ref)}.json`,
    ref: { kind: 'pokemontcg_id', value: r.ref },
  }));
}

/** The word the price guide puts before a set's name in its console-name, per catalogue game. */
export const PRICE_GUIDE_CONSOLES: Record<string, string> = { pokemon: 'Pokemon ', lorcana: 'Lorcana ' };

export const PRICE_FEEDS: Record<string, FeedSpec> = {
  pokemontcg: {
    games: ['pokemon'],
    documents: single((g, d) => `/feeds/pokemontcg/${g}/${d}.json`),
    parse: (body) => parsePokemontcgIo(body),
  },
  tcgplayer: {
    games: ['flesh-and-blood'],
    documents: single((g, d) => `/feeds/tcgplayer/${g}/${d}.json`),
    parse: (body, c) => parseTcgplayerPricing(body, c.day),
  },
  scryfall: {
    games: ['mtg'],
    documents: single((g, d) => `/feeds/scryfall/${g}/${d}.json`),
    parse: (body, c) => parseScryfallPrices(body, c.day),
  },
  cardmarket: {
    games: ['mtg'],
    documents: single((g, d) => `/feeds/cardmarket/${g}/${d}.json`),
    parse: (body) => parseCardmarketGuide(body),
  },
  pricecharting: {
    games: Object.keys(PRICE_GUIDE_CONSOLES),
    documents: single((g, d) => `/feeds/pricecharting/${g}/${d}.csv`),
    parse: (body, c) => parsePriceChartingCsv(body, c.day, { game: c.game, consolePrefix: PRICE_GUIDE_CONSOLES[c.game]! }),
  },
  ebay: {
    games: ['pokemon'],
    documents: watchedCards,
    parse: (body, c) => {
      if (!c.ref) throw new Error('an auction search result belongs to one card');
      return parseAuctionSold(body, c.ref);
    },
  },
};

export const FX_FEED_PATH = (day: string) => `/feeds/ecb/fx/${day}.xml`;

export function feedPairs(): { source: string; game: string }[] {
  return Object.entries(PRICE_FEEDS).flatMap(([source, spec]) => spec.games.map((game) => ({ source, game })));
}
