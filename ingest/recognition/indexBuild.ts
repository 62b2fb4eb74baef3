// Builds the recognition index in PostgreSQL from the image store's card pictures: features are
// computed once per picture (its SHA-256 and the features' version decide), so a run over an
// unchanged store reads each picture's digest and nothing more.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import type { PgRunner } from '../../sql/typedQuery.js';
import type { ImageStore } from '../../sql/stores/images.js';
import { recognitionDigests, upsertRecognitionFeatures } from '../../sql/recognition.js';
import { FEATURES_VERSION, serialiseFeatures } from './features.js';
import { openCv } from './opencv.js';
import { referenceFeatures } from './reference.js';

export type IndexBatchResult = { examined: number; computed: number; unchanged: number; unreadable: number };

/** Features of these cards' pictures, computed where the picture (or the method) changed. */
export async function indexCardPictures(
  db: PgRunner,
  store: ImageStore,
  cardIds: number[],
  progress: (done: number) => void = () => undefined,
): Promise<IndexBatchResult> {
  const cv = await openCv();
  const known = new Map<string, string>();
  for (const d of await recognitionDigests(db, cardIds)) known.set(`${d.card_id}:${d.cut}`, d.image_sha256);
  const result: IndexBatchResult = { examined: 0, computed: 0, unchanged: 0, unreadable: 0 };
  for (const cardId of cardIds) {
    result.examined++;
    const file = store.bestOriginal(cardId);
    if (!file) continue;
    const bytes = await fs.readFile(file);
    const digest = `v${FEATURES_VERSION}:${crypto.createHash('sha256').update(bytes).digest('hex')}`;
    if (known.get(`${cardId}:0`) === digest && known.get(`${cardId}:1`) === digest) {
      result.unchanged++;
      continue;
    }
    let cuts;
    try {
      cuts = await referenceFeatures(cv, bytes);
    } catch {
      result.unreadable++;
      continue;
    }
    for (const [cut, features] of cuts.entries()) await upsertRecognitionFeatures(db, cardId, cut, digest, serialiseFeatures(features));
    result.computed++;
    progress(result.examined);
  }
  return result;
}
