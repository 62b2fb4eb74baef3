// What the in-process recognition benches share (recognitionMisses.ts, recognitionProfile.ts): the
// index of the 639 reference scans (the features the served index holds, cached per features
// version), and the photos of either set with where their card lies: the second generator's tuning
// part (test/support/hardPhotos.ts) or the first generator's photos. Both generators are
// deterministic, so photos are cached between runs while their code is unchanged. The held-out part
// is only for diagnosing the final report's misses after it (BENCH_HELD_OUT=1, which heldOutPhoto
// checks): never cached, so nothing else finds it on disk.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../sql/runtime/paths.js';
import { deserialiseFeatures, FEATURES_VERSION, serialiseFeatures } from '../../ingest/recognition/features.js';
import { RecognitionIndex } from '../../ingest/recognition/matcher.js';
import type { Cv } from '../../ingest/recognition/opencv.js';
import type { Quad } from '../../ingest/recognition/photo.js';
import { referenceFeatures } from '../../ingest/recognition/reference.js';
import { cardPhoto, randomDistortion, randomGenerator } from '../support/cardPhotos.js';
import { hardFamilies, heldOutPhoto, tuningPhoto, type HardPhoto } from '../support/hardPhotos.js';
import { referenceScans } from '../support/hardPhotoSets.js';

export type PhotoSet = 'tuning' | 'old' | 'held-out';
export const scratch = path.join(repoRoot, '.scratch');
/** The reference scans; a card's id in the harness's index is its position here. */
export const references = referenceScans();

/** The index of every reference scan (computing 639 scans' features takes ~30 s, so they are cached). */
export async function harnessIndex(cv: Cv): Promise<RecognitionIndex> {
  const indexFile = path.join(scratch, `misses-index-v${FEATURES_VERSION}.bin`);
  const entries: { cardId: number; bytes: Buffer }[] = [];
  if (fs.existsSync(indexFile)) {
    const all = fs.readFileSync(indexFile);
    for (let o = 0; o < all.length;) {
      const cardId = all.readInt32LE(o);
      const length = all.readInt32LE(o + 4);
      entries.push({ cardId, bytes: all.subarray(o + 8, o + 8 + length) });
      o += 8 + length;
    }
  } else {
    for (const [cardId, file] of references.entries())
      for (const f of await referenceFeatures(cv, file)) entries.push({ cardId, bytes: serialiseFeatures(f) });
    fs.mkdirSync(scratch, { recursive: true });
    fs.writeFileSync(
      indexFile,
      Buffer.concat(
        entries.flatMap(({ cardId, bytes }) => {
          const head = Buffer.alloc(8);
          head.writeInt32LE(cardId, 0);
          head.writeInt32LE(bytes.length, 4);
          return [head, bytes];
        }),
      ),
    );
  }
  const index = new RecognitionIndex(entries.length);
  for (const e of entries) index.add(e.cardId, deserialiseFeatures(e.bytes)!);
  return index;
}

/** A photo and what it shows: the card, its corners (when known) and the other cards' in the photo's pixels. */
export type Sample = { jpeg: Buffer; cardId: number; quad: Quad | null; others: Quad[]; family: string[] };

const digestOf = (file: string) =>
  crypto
    .createHash('sha256')
    .update(fs.readFileSync(new URL(file, import.meta.url)))
    .digest('hex')
    .slice(0, 12);

async function cached(dir: string, i: number, make: () => Promise<Sample>): Promise<Sample> {
  const file = path.join(dir, `${i}`);
  if (fs.existsSync(`${file}.json`))
    return { ...(JSON.parse(fs.readFileSync(`${file}.json`, 'utf8')) as Omit<Sample, 'jpeg'>), jpeg: fs.readFileSync(`${file}.jpg`) };
  const s = await make();
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(`${file}.jpg`, s.jpeg);
  fs.writeFileSync(`${file}.json`, JSON.stringify({ ...s, jpeg: undefined }));
  return s;
}

/** Photo `i` of the chosen set. */
export async function sample(set: PhotoSet, i: number): Promise<Sample> {
  const ofHard = (p: HardPhoto): Sample => ({
    jpeg: p.jpeg,
    cardId: references.indexOf(p.reference),
    quad: p.quad,
    others: p.others,
    family: hardFamilies(p.spec),
  });
  if (set === 'held-out') return ofHard(await heldOutPhoto(i, references));
  if (set === 'tuning')
    return cached(path.join(scratch, 'tuning-samples', digestOf('../support/hardPhotos.js')), i, async () =>
      ofHard(await tuningPhoto(i, references)),
    );
  return cached(path.join(scratch, 'old-samples', digestOf('../support/cardPhotos.js')), i, async () => {
    const random = randomGenerator(20261124 + i);
    const cardId = Math.floor(random() * references.length);
    const d = randomDistortion(random);
    return { jpeg: await cardPhoto(references[cardId]!, d, i + 1), cardId, quad: null, others: [], family: [d.background] };
  });
}
