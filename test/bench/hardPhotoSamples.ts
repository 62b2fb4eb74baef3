// Writes a few tuning photos with their card's outline drawn, to look at the generator's output:
// node dist/test/bench/hardPhotoSamples.js <folder> [count]
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { repoRoot } from '../../sql/runtime/paths.js';
import { tuningPhoto } from '../support/hardPhotos.js';
import { referenceScans } from '../support/hardPhotoSets.js';

const out = process.argv[2] ?? path.join(repoRoot, '.scratch', 'hard');
const count = Number(process.argv[3] ?? 8);
fs.mkdirSync(out, { recursive: true });
const references = referenceScans();
for (let i = 0; i < count; i++) {
  const t = performance.now();
  const p = await tuningPhoto(i, references);
  const ms = performance.now() - t;
  const meta = await sharp(p.jpeg).metadata();
  const outline = `<svg xmlns="http://www.w3.org/2000/svg" width="${meta.width}" height="${meta.height}"><polygon points="${p.quad.map((q) => `${q.x},${q.y}`).join(' ')}" fill="none" stroke="red" stroke-width="3"/><circle cx="${p.quad[0].x}" cy="${p.quad[0].y}" r="10" fill="red"/></svg>`;
  await sharp(p.jpeg)
    .composite([{ input: Buffer.from(outline) }])
    .jpeg()
    .toFile(path.join(out, `${i}.jpg`));
  console.log(i, `${meta.width}x${meta.height}`, `${ms.toFixed(0)} ms`, path.basename(p.reference), JSON.stringify(p.spec));
}
