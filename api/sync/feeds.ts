// The change feeds' paging: read up to a horizon taken first, so a page never misses a change
// that commits while it is read, and hand out the horizon itself once the feed is exhausted.
import type { z } from 'zod';
import type { Db } from '../../sql/stores/db.js';
import { feedHorizon, idChangesPage, priceChangesPage } from '../../sql/sync.js';
import type { IdChange, IdChangesQuery, PriceChange, PriceChangesQuery } from '../../schemas/sync.js';

type Position = { xid: string; seq: string };
type Page<T> = { items: T[]; next_cursor: string; has_more: boolean };

const later = (a: Position, b: Position) => (BigInt(a.xid) > BigInt(b.xid) || (a.xid === b.xid && BigInt(a.seq) > BigInt(b.seq)) ? a : b);

async function readFeed<Row extends Position, T>(
  db: Db,
  query: { updated_after?: string; cursor?: Position; size: number },
  read: (horizon: string, cursor: Position, limit: number) => Promise<Row[]>,
  present: (row: Row) => T,
): Promise<Page<T>> {
  const [{ xid: horizon }] = (await feedHorizon(db)) as [{ xid: string }];
  const cursor = query.cursor ?? { xid: '0', seq: '0' };
  // One more than asked tells whether another page is already there.
  const rows = await read(horizon, cursor, query.size + 1);
  const hasMore = rows.length > query.size;
  const page = rows.slice(0, query.size);
  const next = hasMore ? page.at(-1)! : later({ xid: horizon, seq: '0' }, cursor);
  return { items: page.map(present), next_cursor: `${next.xid}.${next.seq}`, has_more: hasMore };
}

export function priceChanges(db: Db, query: z.output<typeof PriceChangesQuery>): Promise<Page<z.input<typeof PriceChange>>> {
  return readFeed(
    db,
    query,
    (horizon, cursor, limit) =>
      priceChangesPage(db, query.updated_after ?? null, cursor.xid, cursor.seq, query.game ?? null, limit, horizon),
    ({ xid: _x, seq: _s, ...change }) => change,
  );
}

export function idChanges(db: Db, query: z.output<typeof IdChangesQuery>): Promise<Page<z.input<typeof IdChange>>> {
  return readFeed(
    db,
    query,
    (horizon, cursor, limit) => idChangesPage(db, query.updated_after ?? null, cursor.xid, cursor.seq, query.kind ?? null, limit, horizon),
    ({ xid: _x, seq: _s, kind, ...change }) => ({ ...change, kind: kind as z.input<typeof IdChange>['kind'] }),
  );
}
