import type { AppDeps } from '../../deps.js';
import { defineRoute } from '../../http/route.js';
import { IdChangesQuery, IdChangesResponse, PriceChangesQuery, PriceChangesResponse } from '../../../schemas/sync.js';
import { idChanges, priceChanges } from '../../sync/feeds.js';

const FEED_PAGING =
  "Start with `updated_after` (or nothing, for everything), then pass each answer's `next_cursor` as `cursor` until `has_more` is false; keep the last `next_cursor` and ask again with it later to receive only what changed since. Ordered by commit, so a change committed while you page is never skipped.";

export const syncRoutes = (deps: AppDeps) => [
  defineRoute({
    method: 'get',
    path: '/api/v2/price-changes',
    summary: 'Latest prices that changed: the incremental sync feed',
    description: `One item per series whose latest value or day changed (the value it has now; a series changed twice appears once, at its newer position). ${FEED_PAGING}`,
    tags: ['v2'],
    query: PriceChangesQuery,
    response: PriceChangesResponse,
    errors: [503],
    handler: ({ query }) => priceChanges(deps.db, query),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v2/id-changes',
    summary: "Changes to variants' external ids (Cardmarket, TCGplayer, price guide, Scryfall, pokemontcg.io)",
    description: `Every new or different id a catalogue sync stored, with the value before (null when first seen), after, the reason and the time. An id an upstream stops stating is kept, not logged as removed. ${FEED_PAGING}`,
    tags: ['v2'],
    query: IdChangesQuery,
    response: IdChangesResponse,
    errors: [503],
    handler: ({ query }) => idChanges(deps.db, query),
  }),
];
