// The ClickHouse copy of what price mapping reads from the PostgreSQL catalogue (references,
// variants with their card, game, printing and print run), kept per catalogue version: a batch
// maps by joining it in ClickHouse, never by sending its references to PostgreSQL and rows back.
// The version moves with every catalogue change (039_catalogue_version.sql), so a batch copies
// only when the catalogue changed since the last copy (a new set, a learnt cross reference).
import type pg from 'pg';
import type { ClickHouseClient } from '@clickhouse/client';
import { pgTransaction } from '../../sql/stores/db.js';
import {
  catalogueCopyVersions,
  catalogueVersion,
  setSnapshotTransaction,
  copyCatalogueToClickHouse,
  dropCatalogueCopy,
  recordCatalogueCopy,
} from '../../sql/ingestStaging.js';

/** Copies kept besides the newest: a batch that resolved the one before still finds it whole. */
const KEEP_OLDER = 1;
// Batches of one process that need the same version wait for one copy.
const copying = new WeakMap<ClickHouseClient, Map<number, Promise<void>>>();
const complete = new WeakMap<ClickHouseClient, Set<number>>();

/** The catalogue version a batch maps with, its ClickHouse copy made first when it has none. */
export async function catalogueCopy(ch: ClickHouseClient, pool: pg.Pool): Promise<number> {
  return pgTransaction(pool, async (client) => {
    // One snapshot: the version read is the one the copied rows belong to.
    await setSnapshotTransaction(client);
    const [{ version } = { version: 0 }] = await catalogueVersion(client);
    const done = complete.get(ch) ?? new Set<number>();
    complete.set(ch, done);
    if (!done.has(version)) {
      const running = copying.get(ch) ?? new Map<number, Promise<void>>();
      copying.set(ch, running);
      let copy = running.get(version);
      if (!copy) {
        copy = copyVersion(ch, client, version).finally(() => running.delete(version));
        running.set(version, copy);
      }
      await copy;
      done.add(version);
    }
    return version;
  });
}

async function copyVersion(ch: ClickHouseClient, client: pg.PoolClient, version: number): Promise<void> {
  const versions = (await catalogueCopyVersions(ch, {})).map((v) => v.version);
  if (versions.includes(version)) return;
  await copyCatalogueToClickHouse(ch, client, version);
  await recordCatalogueCopy(ch, { version });
  for (const old of versions.filter((v) => v < version).slice(KEEP_OLDER))
    for (const table of ['catalogue_refs', 'catalogue_variants'] as const) await dropCatalogueCopy(ch, { table, version: old });
}
