// npm run bench:recognition-misses: where recognition's misses come from, on the tuning part of the
// second photo generator (test/support/hardPhotos.ts) or on the first generator's photos (--set
// old); `--set held-out` with BENCH_HELD_OUT=1 only to say where the final report's misses come
// from, once it is made (a change made after reading them would be tuned to them; its photos are
// not written out). Recognition runs in this process on one thread against an index
// of the 639 reference scans (the same features the served index holds); each miss is put down to
// the first stage that went wrong, knowing where the card really is in the photo:
//   finder: neighbour        the chosen quadrilateral is another card's (a binder pocket beside it)
//   finder: right quad lost  a quadrilateral on the card was tried, but a wrong one matched surer
//   finder: never found      no quadrilateral tried lies on the card (holder's border, clutter)
//   orientation              the right quadrilateral cut at the wrong quarter turn
//   features                 the card cut exactly (known corners, right turn) is not among the
//                            five nearest: the features do not survive the photo's distortions
//   ranking                  the right cut has the card among its five nearest, but not first
// Prints the breakdown, per family, and writes the misses (found outline red, true one green) to
// --examples (default .scratch/misses). BENCH_PHOTOS sets how many photos (default 200).
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { cardFeatures } from '../../ingest/recognition/features.js';
import { openCv } from '../../ingest/recognition/opencv.js';
import { PhotoCuts } from '../../ingest/recognition/pass.js';
import { decodePhoto, insideQuad, type Point, type Quad } from '../../ingest/recognition/photo.js';
import { recognisePhoto, type StageTime } from '../../ingest/recognition/recognise.js';
import { harnessIndex, references, sample, scratch } from './recognitionHarness.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1]! : fallback;
};
const set = option('set', 'tuning');
// The held-out part only to diagnose the final report's misses, after it (BENCH_HELD_OUT=1; see hardPhotos.ts).
if (set !== 'tuning' && set !== 'old' && !(set === 'held-out' && process.env.BENCH_HELD_OUT === '1'))
  throw new Error('--set tuning or --set old (--set held-out with BENCH_HELD_OUT=1 diagnoses the final report, after it)');
const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 200);
const FIRST = Number(option('from', '0'));
const examples = option('examples', path.join(scratch, 'misses', set));

const cv = await openCv();
const index = await harnessIndex(cv);

const centre = (q: Quad): Point => ({ x: (q[0].x + q[1].x + q[2].x + q[3].x) / 4, y: (q[0].y + q[1].y + q[2].y + q[3].y) / 4 });
const side = (q: Quad) => Math.max(Math.hypot(q[2].x - q[0].x, q[2].y - q[0].y), Math.hypot(q[3].x - q[1].x, q[3].y - q[1].y)) / Math.SQRT2;

/** The largest corner distance between two quadrilaterals over their best corner pairing, as a share of `truth`'s size; and that pairing's shift. */
function quadError(found: Quad, truth: Quad): { error: number; shift: number } {
  let best = { error: Infinity, shift: 0 };
  for (let shift = 0; shift < 4; shift++) {
    const error =
      Math.max(...truth.map((p, i) => Math.hypot(p.x - found[(i + shift) % 4]!.x, p.y - found[(i + shift) % 4]!.y))) / side(truth);
    if (error < best.error) best = { error, shift };
  }
  return best;
}

/** The quarter turn cutCard's corner shift stands for (see photo.ts). */
const SHIFT_OF = { 0: 0, 90: 3, 180: 2, [-90]: 1 } as const;
/** A quadrilateral counts as on the card within this share of the card's size. */
const ON_CARD = 0.06;

const stages = new Map<string, number>();
const families = new Map<string, { n: number; right: number }>();
let top1 = 0;
let top5 = 0;
let confident = 0;
let confidentWrong = 0;
const times: number[] = [];
/** Each photo's time by stage of the search (recognisePhoto's own clock), for the profile of the slowest. */
const profiles: { photo: number; ms: number; stages: StageTime[] }[] = [];
// The held-out part's photos are never written anywhere (a later tuning run could open them).
const writeExamples = set !== 'held-out';
if (writeExamples) {
  fs.rmSync(examples, { recursive: true, force: true });
  fs.mkdirSync(examples, { recursive: true });
}
const started = performance.now();
for (let i = FIRST; i < FIRST + PHOTOS; i++) {
  const s = await sample(set, i);
  const photo = await decodePhoto(s.jpeg);
  if ('refused' in photo) throw new Error(`photo ${i} refused: ${photo.refused}`);
  const t = performance.now();
  const result = await recognisePhoto(cv, index, photo);
  times.push(performance.now() - t);
  profiles.push({ photo: i, ms: times.at(-1)!, stages: result.stages });
  const ids = result.candidates.map((c) => c.cardId);
  const right = ids[0] === s.cardId;
  if (right) top1++;
  if (ids.slice(0, 5).includes(s.cardId)) top5++;
  const confidence = result.best?.match.confidence ?? 0;
  if (confidence >= 0.9) {
    confident++;
    if (!right) confidentWrong++;
  }
  for (const f of s.family) {
    const e = families.get(f) ?? { n: 0, right: 0 };
    e.n++;
    if (right) e.right++;
    families.set(f, e);
  }
  if (right) continue;
  let stage = 'unknown (no known corners)';
  const truth = s.quad && (s.quad.map((p) => ({ x: p.x / photo.scale, y: p.y / photo.scale })) as Quad);
  let oracle = -1;
  if (truth) {
    // The card cut at its known corners, standing up: its rank there says whether features can do it.
    const cuts = new PhotoCuts(cv, photo);
    try {
      const { ranked } = index.match(cardFeatures(cv, cuts.cut({ quad: truth, rotation: 0 }), { photo: true }));
      oracle = ranked.findIndex((r) => r.cardId === s.cardId);
    } finally {
      cuts.delete();
    }
    const best = result.best;
    if (!best) stage = 'finder: never found';
    else {
      const { error, shift } = quadError(best.candidate.quad, truth);
      if (error > ON_CARD) {
        const onNeighbour = s.others.some((o) =>
          insideQuad(centre(best.candidate.quad), o.map((p) => ({ x: p.x / photo.scale, y: p.y / photo.scale })) as Quad),
        );
        const tried = result.quads.some((q) => quadError(q.quad, truth).error <= ON_CARD);
        stage =
          onNeighbour && !insideQuad(centre(best.candidate.quad), truth)
            ? 'finder: neighbour'
            : tried
              ? 'finder: right quad lost'
              : 'finder: never found';
      } else if (shift !== SHIFT_OF[best.rotation]) stage = 'orientation';
      else stage = oracle < 0 ? 'features' : 'ranking';
    }
  }
  stages.set(stage, (stages.get(stage) ?? 0) + 1);
  const name = `${i}-${stage.replace(/[^a-z]+/g, '-')}`;
  const outline = (q: Quad, colour: string) =>
    `<polygon points="${q.map((p) => `${p.x * photo.scale},${p.y * photo.scale}`).join(' ')}" fill="none" stroke="${colour}" stroke-width="4"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${photo.original.width}" height="${photo.original.height}">${truth ? outline(truth, 'lime') : ''}${result.best ? outline(result.best.candidate.quad, 'red') : ''}</svg>`;
  if (writeExamples)
    await sharp(s.jpeg)
      .composite([{ input: Buffer.from(svg) }])
      .jpeg({ quality: 80 })
      .toFile(path.join(examples, `${name}.jpg`));
  console.log(
    `  miss ${i}: ${stage}; ${path.basename(references[s.cardId]!)} answered ${ids[0] === undefined ? 'nothing' : path.basename(references[ids[0]]!)} at ${confidence.toFixed(2)}, right card ${ids.indexOf(s.cardId) < 0 ? 'not in top 5' : `at ${ids.indexOf(s.cardId) + 1}`}; cut at the known corners: ${oracle < 0 ? 'not in top 5' : `at ${oracle + 1}`}; ${s.family.join('+')}`,
  );
}
const sorted = [...times].sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
console.log(`${set}: ${PHOTOS} photos from ${FIRST} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
console.log(`  top-1 ${(top1 / PHOTOS).toFixed(3)}, top-5 ${(top5 / PHOTOS).toFixed(3)}, confident ${confident} (wrong ${confidentWrong})`);
console.log(`  recognition on one thread: p50 ${pct(50).toFixed(0)} ms, p99 ${pct(99).toFixed(0)} ms`);
// Where the time goes: every photo, and the slowest 5 % (what sets the p99).
const slowest = [...profiles].sort((a, b) => b.ms - a.ms).slice(0, Math.max(1, Math.ceil(0.05 * profiles.length)));
for (const [label, group] of [
  ['all photos', profiles],
  [`slowest ${slowest.length}`, slowest],
] as const) {
  const byStage = new Map<string, { ms: number; passes: number; photos: number }>();
  for (const { stages } of group)
    for (const { stage, ms, passes } of stages) {
      const e = byStage.get(stage) ?? { ms: 0, passes: 0, photos: 0 };
      e.ms += ms;
      e.passes += passes;
      e.photos++;
      byStage.set(stage, e);
    }
  console.log(
    `  time by stage, ${label} (mean ms a photo, passes a photo, share of photos reaching it): ${[...byStage]
      .map(
        ([stage, e]) =>
          `${stage} ${(e.ms / group.length).toFixed(0)} ms/${(e.passes / group.length).toFixed(1)}/${((100 * e.photos) / group.length).toFixed(0)} %`,
      )
      .join(', ')}`,
  );
}
console.log(
  `  slowest: ${slowest
    .slice(0, 5)
    .map((p) => `${p.photo} ${p.ms.toFixed(0)} ms (${p.stages.map((s) => `${s.stage} ${s.ms.toFixed(0)}/${s.passes}`).join(' ')})`)
    .join('; ')}`,
);
console.log(`misses by stage (${PHOTOS - top1}):`);
for (const [stage, n] of [...stages].sort((a, b) => b[1] - a[1])) console.log(`  ${stage.padEnd(26)} ${n}`);
console.log('top-1 by family:');
for (const [f, { n, right }] of [...families].sort((a, b) => b[1].n - a[1].n))
  console.log(`  ${f.padEnd(26)} ${right}/${n} = ${(right / n).toFixed(3)}`);
console.log(writeExamples ? `examples: ${examples}` : 'examples: none written (the held-out part)');
