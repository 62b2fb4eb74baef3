// The reference scans the photo generators photograph: the demo's 639 real card scans, by file.
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../sql/runtime/paths.js';

export const SCANS_DIR = path.resolve(repoRoot, '..', 'shared', 'data', 'images');

/** Every reference scan file, in a fixed order (sets, then collector number). */
export function referenceScans(): string[] {
  return ['pokemon-sv3pt5', 'lorcana-2', 'lorcana-1'].flatMap((set) =>
    fs
      .readdirSync(path.join(SCANS_DIR, set))
      .filter((f) => f.endsWith('.webp'))
      .sort((a, b) => Number(a.split('-')[1]!.split('.')[0]) - Number(b.split('-')[1]!.split('.')[0]))
      .map((f) => path.join(SCANS_DIR, set, f)),
  );
}
