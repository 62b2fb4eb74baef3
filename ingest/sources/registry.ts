// The price feeds Holo ingests: where each lives (relative to the feeds base URL) and its parser.
import { parsePokemontcgIo } from './pokemontcgIo.js';
import { parseScryfallPrices } from './scryfallPrices.js';
import { parseTcgplayerPricing } from './tcgplayerPricing.js';
import type { ParseResult } from './types.js';

export type FeedSpec = { games: string[]; path(game: string, day: string): string; parse(body: string, day: string): ParseResult };

export const PRICE_FEEDS: Record<string, FeedSpec> = {
  pokemontcg: { games: ['pokemon'], path: (g, d) => `/feeds/pokemontcg/${g}/${d}.json`, parse: (body) => parsePokemontcgIo(body) },
  tcgplayer: { games: ['flesh-and-blood'], path: (g, d) => `/feeds/tcgplayer/${g}/${d}.json`, parse: (body, d) => parseTcgplayerPricing(body, d) },
  scryfall: { games: ['mtg'], path: (g, d) => `/feeds/scryfall/${g}/${d}.json`, parse: (body, d) => parseScryfallPrices(body, d) },
};

export const FX_FEED_PATH = (day: string) => `/feeds/ecb/fx/${day}.xml`;

export function feedPairs(): { source: string; game: string }[] {
  return Object.entries(PRICE_FEEDS).flatMap(([source, spec]) => spec.games.map((game) => ({ source, game })));
}
