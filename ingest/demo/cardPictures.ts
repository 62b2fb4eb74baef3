// The demo's card pictures: the real reference scans in the shared data folder (images/, named by
// the catalogue's ids) copied into the image store, where /static/images serves them instead of
// placeholders and the recognition index reads them. Only the demo reads the shared folder.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { PgRunner } from '../../sql/typedQuery.js';
import type { Logger } from '../../sql/runtime/log.js';
import type { ImageStore } from '../../sql/stores/images.js';
import { cardsOfSetByNumber } from '../../sql/recognition.js';

/** Each folder of scans, the set its files belong to, and the prefix before the collector number. */
const FOLDERS = [
  { folder: 'pokemon-sv3pt5', setKey: 'pokemontcg:sv3pt5', prefix: 'sv3pt5-' },
  { folder: 'lorcana-2', setKey: 'lorcanajson:2', prefix: '2-' },
  { folder: 'lorcana-1', setKey: 'lorcanajson:1', prefix: '1-' },
] as const;

export type DemoPictures = { found: number; copied: number; unmatched: number };

/** Copies the scans the store does not hold yet (as both sizes: small is derived on serve). */
export async function copyDemoCardPictures(db: PgRunner, store: ImageStore, sharedDataDir: string, log: Logger): Promise<DemoPictures> {
  const total: DemoPictures = { found: 0, copied: 0, unmatched: 0 };
  for (const { folder, setKey, prefix } of FOLDERS) {
    const dir = path.join(sharedDataDir, 'images', folder);
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    if (names.length === 0) continue;
    const cardOfNumber = new Map((await cardsOfSetByNumber(db, setKey)).map((c) => [c.collector_number, c.id]));
    const counts: DemoPictures = { found: 0, copied: 0, unmatched: 0 };
    for (const name of names) {
      const number = /^(.+)\.(webp|png|jpe?g)$/.exec(name)?.[1]?.slice(prefix.length);
      if (!number || !name.startsWith(prefix)) continue;
      counts.found++;
      const cardId = cardOfNumber.get(number);
      if (cardId === undefined) {
        counts.unmatched++;
        continue;
      }
      if (store.hasOriginal(cardId, 'large')) continue;
      const bytes = await fs.readFile(path.join(dir, name));
      await store.saveOriginal(cardId, 'large', bytes);
      await store.saveOriginal(cardId, 'small', bytes);
      await store.dropDerived(cardId);
      counts.copied++;
    }
    log.info('demo data: card pictures', { folder, ...counts });
    for (const key of ['found', 'copied', 'unmatched'] as const) total[key] += counts[key];
  }
  return total;
}
