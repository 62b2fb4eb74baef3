// Fetches upstream card pictures into the image store, so /static/images serves our own copies.
// Sources are http(s) URLs or local files; failures are counted and reported, never fatal.
import { imageSources } from '../../sql/priceLoads.js';
import fs from 'node:fs/promises';
import type pg from 'pg';
import type { Logger } from '../../sql/runtime/log.js';
import type { ImageStore } from '../../sql/stores/images.js';

export type FetchSummary = { attempted: number; stored: number; failed: number };

async function readSource(url: string, timeoutMs: number): Promise<Buffer> {
  if (url.startsWith('http://') || url.startsWith('https://')) {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  }
  return fs.readFile(url.startsWith('file://') ? new URL(url) : url);
}

export async function fetchImageOriginals(
  pool: pg.Pool,
  store: ImageStore,
  log: Logger,
  opts: { cardIds?: number[]; concurrency?: number; timeoutMs?: number } = {},
): Promise<FetchSummary> {
  const rows = (await imageSources(pool, opts.cardIds ?? null)).filter((r) => !store.hasOriginal(r.card_id, r.kind));
  const summary: FetchSummary = { attempted: rows.length, stored: 0, failed: 0 };
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const row = rows[next++]!;
      try {
        await store.saveOriginal(row.card_id, row.kind, await readSource(row.source_url, opts.timeoutMs ?? 10_000));
        await store.dropDerived(row.card_id);
        summary.stored++;
      } catch (err) {
        summary.failed++;
        log.debug('image fetch failed', { card_id: row.card_id, kind: row.kind, error: (err as Error).message });
      }
      const done = summary.stored + summary.failed;
      if (done % 500 === 0) log.info('image fetch progress', { ...summary, done });
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, worker));
  log.info('image fetch finished', summary);
  return summary;
}
