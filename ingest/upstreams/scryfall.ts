// Scryfall (scryfall.com/docs/api, /docs/api/bulk-data): GET /bulk-data/default-cards names the
// day's default-cards file (download_uri, timestamped, on another host; every English card with
// its prices, ~500 MB of JSON array sent gzip-encoded), which is read as a stream with a
// conditional GET (30 min for the whole file, as the catalogue's read of the same kind of file
// has). Every request carries the User-Agent and Accept Scryfall requires, and
// requests to api.scryfall.com are spaced 100 ms apart (its 10 a second). Prices are dated by the
// bulk file's updated_at.
import { parseScryfallPrices } from '../sources/scryfallPrices.js';
import { FeedFormatError } from '../sources/types.js';
import { BULK_FILE_TIMEOUT_MS, type Upstream } from './http.js';
import { conditionalDocument, dayOf, type FeedContext, type FeedItem, type PriceConnector } from './types.js';

type BulkData = { object?: string; type?: string; updated_at?: string; download_uri?: string };

export const scryfall: PriceConnector = {
  games: ['mtg'],
  async *documents(upstream: Upstream, ctx: FeedContext): AsyncGenerator<FeedItem> {
    const bulk = await upstream.json<BulkData>('/bulk-data/default-cards', { headers: { Accept: 'application/json' } });
    if (bulk.object !== 'bulk_data' || typeof bulk.download_uri !== 'string' || !/^https?:\/\//.test(bulk.download_uri))
      throw new FeedFormatError(`Scryfall /bulk-data/default-cards has no download_uri: ${JSON.stringify(bulk).slice(0, 200)}`);
    const day = dayOf(bulk.updated_at, ctx);
    yield* conditionalDocument(upstream, ctx, bulk.download_uri, () => (body, stage) => parseScryfallPrices(body, day, stage), {
      headers: { Accept: 'application/json' },
      timeoutMs: BULK_FILE_TIMEOUT_MS,
    });
  },
};
