// Incremental sync feeds (schemas/sync.ts): price changes and the external id change log, each a
// page in (transaction, sequence) order below a horizon (feed_horizon.sql).
import { z } from 'zod';
import { LatestPriceRow } from './priceLoads.js';
import { pgQuery } from './typedQuery.js';

const int = z.number().int();
const FeedPosition = { xid: z.string(), seq: z.string(), changed_at: z.string() };

/** The transaction id below which every writer has finished. */
export const feedHorizon = pgQuery<[], z.ZodObject<{ xid: z.ZodString }>>('sync/feed_horizon', z.object({ xid: z.string() }));

type FeedParams<Filter> = [
  updatedAfter: string | null,
  cursorXid: string,
  cursorSeq: string,
  filter: Filter,
  limit: number,
  horizon: string,
];

// A latest price (priceLoads.ts) with its card and feed position; the amount as a number, as served.
const PriceChangeRow = LatestPriceRow.extend({ ...FeedPosition, card_id: int, variant_id: int, amount: z.number() });
/** A page of latest-price changes, optionally of one game (slug). */
export const priceChangesPage = pgQuery<FeedParams<string | null>, typeof PriceChangeRow>('sync/price_changes_page', PriceChangeRow);

const IdChangeRow = z.object({
  ...FeedPosition,
  id: int,
  card_id: int,
  variant_id: int,
  kind: z.string(),
  before: z.string().nullable(),
  after: z.string(),
  reason: z.string(),
});
/** A page of the external id change log, optionally of one kind of id. */
export const idChangesPage = pgQuery<FeedParams<string | null>, typeof IdChangeRow>('sync/id_changes_page', IdChangeRow);
