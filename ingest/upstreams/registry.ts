// The price feeds Holo ingests, one connector per upstream, and the upstream clients a worker
// shares between its feeds (so a source's request budget holds across its games). A source
// whose required credentials are not set is off: its feeds fail at once saying which variables to
// set, and the sources report says so; none is ever skipped silently.
import { UPSTREAM_NAMES, UPSTREAMS, type UpstreamConfig, type UpstreamName } from '../../schemas/config.js';
import { cardmarket } from './cardmarket.js';
import { ebay } from './ebay.js';
import { Upstream } from './http.js';
import { pokemontcg } from './pokemontcg.js';
import { pricecharting } from './pricecharting.js';
import { scryfall } from './scryfall.js';
import { tcgplayer } from './tcgplayer.js';
import type { PriceConnector } from './types.js';

export const PRICE_CONNECTORS: Record<string, PriceConnector> = { pokemontcg, tcgplayer, scryfall, cardmarket, pricecharting, ebay };

export function feedPairs(): { source: string; game: string }[] {
  return Object.entries(PRICE_CONNECTORS).flatMap(([source, c]) => c.games.map((game) => ({ source, game })));
}

export type Upstreams = Record<UpstreamName, Upstream>;

export function createUpstreams(config: Record<UpstreamName, UpstreamConfig>): Upstreams {
  return Object.fromEntries(UPSTREAM_NAMES.map((name) => [name, new Upstream(name, config[name])])) as Upstreams;
}

/** The required credential variables of a source that are not set (empty: the source is on). */
export function missingRequiredCredentials(upstream: Upstream): string[] {
  return UPSTREAMS[upstream.source as UpstreamName].required ? upstream.missingCredentials() : [];
}
