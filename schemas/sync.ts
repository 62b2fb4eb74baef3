// Incremental sync (issue 18): what changed since a time, as feeds a client pages through with a
// cursor, and the `updated_after` filter of the v2 catalogue listings.
import { Instant, intParam, z } from './common.js';

const SLUG = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** An ISO 8601 instant with its offset; the feeds compare it with microsecond timestamps. */
export const UpdatedAfter = Instant.openapi({
  description: 'only what changed after this instant (ISO 8601 with offset, e.g. 2026-11-23T00:00:00Z)',
  example: '2026-11-23T00:00:00Z',
});

/**
 * A feed position: opaque to clients; the next_cursor of the previous page. A transaction id (an
 * unsigned 64-bit xid8) and a sequence (a signed bigint); the digits the pattern allows fit both
 * columns whatever they are (19 digits < 2^64, 18 < 2^63), so every cursor the document accepts
 * is one the feed reads.
 */
const CURSOR = '^\\d{1,19}\\.\\d{1,18}$';
export const FeedCursor = z
  .string()
  .regex(new RegExp(CURSOR), { message: 'not a cursor from this feed' })
  .transform((s) => {
    const [xid, seq] = s.split('.') as [string, string];
    // Without leading zeros: PostgreSQL reads an xid8 like C's strtoull, "010" as octal 8 and
    // "09" not at all.
    return { xid: BigInt(xid).toString(), seq: BigInt(seq).toString() };
  })
  .openapi({ type: 'string', pattern: CURSOR, description: 'next_cursor of the previous page (opaque)', example: '0.0' });

const feedQuery = {
  updated_after: UpdatedAfter.optional(),
  cursor: FeedCursor.optional(),
  size: intParam({ min: 1, max: 1000 }).default(500),
};

const InstantOut = z.string().openapi({ format: 'date-time' });
const feedPage = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    next_cursor: z.string().openapi({
      description:
        'pass as cursor to continue; keep it and ask again later to get only newer changes (the feed never places a later commit behind a cursor already handed out)',
    }),
    has_more: z.boolean().openapi({ description: 'true when a page with this cursor already has more items' }),
  });

export const PriceChangesQuery = z.strictObject({
  ...feedQuery,
  game: z.string().regex(SLUG).optional().openapi({ description: 'only cards of this game (slug)' }),
});
export const PriceChange = z
  .object({
    card_id: z.number().int(),
    variant_id: z.number().int(),
    region: z.string(),
    source: z.string(),
    price_type: z.string(),
    grading_company: z.string(),
    grade: z.string(),
    currency: z.string(),
    amount: z.number(),
    as_of: z.string().openapi({ format: 'date' }),
    changed_at: InstantOut,
  })
  .openapi('PriceChange');
export const PriceChangesResponse = feedPage(PriceChange).openapi('PriceChangesPage');

export const ID_KINDS = ['cardmarket_product', 'tcgplayer_product', 'tcgplayer_sku', 'price_guide', 'scryfall', 'pokemontcg_io'] as const;
export const IdChangesQuery = z.strictObject({
  ...feedQuery,
  kind: z.enum(ID_KINDS).optional().openapi({ description: 'only changes to this kind of id' }),
});
export const IdChange = z
  .object({
    id: z.number().int(),
    card_id: z.number().int(),
    variant_id: z.number().int(),
    kind: z.enum(ID_KINDS),
    before: z.string().nullable().openapi({ description: 'null when the id was first seen' }),
    after: z.string(),
    reason: z.string(),
    changed_at: InstantOut,
  })
  .openapi('IdChange');
export const IdChangesResponse = feedPage(IdChange).openapi('IdChangesPage');
