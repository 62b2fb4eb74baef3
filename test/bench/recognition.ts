// npm run bench:recognition: card recognition as users run it (POST /api/cards/recognize on the
// embedded stores, the index built from the demo's 639 real card scans), against issue 17's goals:
//  1. 500 distorted photos (tilt up to 20°, each quarter turn ± 8°, JPEG quality 35–90, blur,
//     lighting shifts, a glare patch up to 10 %, sleeve borders, cluttered/dark/light tables,
//     card sizes 220–600 px): exact-printing top-1 ≥ 97 %, top-5 ≥ 99.5 %, at most 1 % wrong among
//     answers with confidence ≥ 0.9; p50 ≤ 150 ms and p99 ≤ 400 ms end to end (≤ 600 with the
//     rotation fallback).
//  2. 40 photos of 12 megapixels (4000 × 3000, the card ~1,500 px tall): the same latency goals,
//     the decode included.
//  3. The index: loaded from PostgreSQL in ≤ 2 s and ≤ 300 MB resident at 20,000 cards, both
//     measured at that size with copies of the stored entries.
//  4. Issue 37: 300 photos of the second generator's tuning part (test/support/hardPhotos.ts:
//     binder pages, piles, sleeves, toploaders, a thumb, perspective to 25°, low light, motion
//     blur, real photographs), and with BENCH_HELD_OUT=1 (the final report only) 300 of its
//     held-out part: top-1 ≥ 97 %, top-5 ≥ 99.5 %, ≤ 1 % wrong at confidence ≥ 0.9, p50 ≤ 150 ms,
//     p99 ≤ 600 ms with the rotation fallback (BENCH_HARD_PHOTOS sets how many).
//  5. The first photo after a start, in a fresh process, warmed as api/main.ts warms it and not.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../sql/runtime/paths.js';
import { ImageStore } from '../../sql/stores/images.js';
import { indexCardPictures } from '../../ingest/recognition/indexBuild.js';
import { accountWithKey } from '../support/accounts.js';
import { startStack } from '../support/stack.js';
import { cardPhoto, randomDistortion, randomGenerator, type Distortion } from '../support/cardPhotos.js';
import { hardFamilies, heldOutPhoto, tuningPhoto } from '../support/hardPhotos.js';
import { referenceScans } from '../support/hardPhotoSets.js';

const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 500);
const BIG_PHOTOS = Number(process.env.BENCH_BIG_PHOTOS ?? 40);
/** Photos of each part of the second generator. */
const HARD_PHOTOS = Number(process.env.BENCH_HARD_PHOTOS ?? 300);
const GOALS = { top1: 0.97, top5: 0.995, confidentWrong: 0.01, p50Ms: 150, p99Ms: 400, p99FallbackMs: 600, loadMs: 2000, residentMb: 300 };
const TARGET_CARDS = 20_000;

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
};
const atLeast = (value: number, goal: number) =>
  `goal >= ${goal}: ${value >= goal ? 'meets goal' : 'MISSES goal'}, ratio ${(value / goal).toFixed(3)}`;
const atMost = (value: number, goal: number) =>
  `goal <= ${goal}: ${value <= goal ? 'meets goal' : 'MISSES goal'}, ratio ${(value / goal).toFixed(2)}`;

const scans = path.resolve(repoRoot, '..', 'shared', 'data', 'images');
const stack = await startStack({ demo: 'small', env: { HOLO_LOG_LEVEL: 'warn' } });
try {
  const store = new ImageStore(path.join(stack.config.dataDir, 'images'));
  const pictured = await store.cardsWithOriginals();
  let started = performance.now();
  await indexCardPictures(stack.stores.pg.pool, store, pictured);
  console.log(`index: ${pictured.length} card pictures, features computed in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // 3. Loading the index, in a process of its own (see recognitionIndexLoad.ts).
  const child = path.join(repoRoot, 'dist', 'test', 'bench', 'recognitionIndexLoad.js');
  const loaded = JSON.parse(
    execFileSync(process.execPath, ['--expose-gc', child, stack.stores.pg.url, String(TARGET_CARDS)], { encoding: 'utf8' }),
  ) as {
    cards: number;
    loadMs: number;
    targetLoadMs: number;
    rssBefore: number;
    rssAfter: number;
    indexBytes: number;
    targetCards: number;
    targetBytes: number;
    rssTarget: number;
    threads: number;
    rssThreads: number;
  };
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

  console.log(
    `index load (own process): ${loaded.cards} cards in ${loaded.loadMs.toFixed(0)} ms, ${(loaded.indexBytes / 2 ** 20).toFixed(2)} MB of features, resident ${mb(loaded.rssBefore)} → ${mb(loaded.rssAfter)} MB`,
  );
  console.log(
    `  ${loaded.targetCards} cards (copies of these, in a transaction rolled back after) loaded from PostgreSQL in ${loaded.targetLoadMs.toFixed(0)} ms (${atMost(loaded.targetLoadMs, GOALS.loadMs)})`,
  );
  console.log(
    `  an index of ${loaded.targetCards} cards (copies of these) held in that process: ${mb(loaded.targetBytes)} MB of features, resident ${mb(loaded.rssTarget)} MB (${atMost(loaded.rssTarget / 2 ** 20, GOALS.residentMb)})`,
  );
  console.log(
    `  with the instance's ${loaded.threads} recognition threads started (each its own OpenCV; the index shared, not copied): resident ${mb(loaded.rssThreads)} MB`,
  );

  const { rows } = await stack.stores.pg.pool.query<{ id: number; file: string }>(
    `SELECT c.id, CASE s.external_key WHEN 'pokemontcg:sv3pt5' THEN 'pokemon-sv3pt5/sv3pt5-' WHEN 'lorcanajson:2' THEN 'lorcana-2/2-' ELSE 'lorcana-1/1-' END || c.collector_number AS file
     FROM cards c JOIN sets s ON s.id = c.set_id WHERE c.id = ANY ($1::int[]) ORDER BY c.id`,
    [pictured],
  );
  const account = await accountWithKey(stack, 'benchscanner', 'enterprise');
  // A served instance starts its recognition threads when it starts (api/main.ts); so does this one
  // before the clock runs.
  await stack.server.deps.recognitionThreads.started();
  const recognise = async (photo: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(photo)]), 'photo.jpg');
    const t = performance.now();
    const res = await fetch(`${stack.url}/api/cards/recognize`, { method: 'POST', headers: account.headers, body: form });
    const body = (await res.json()) as { candidates: { card_id: number; confidence: number }[]; rotation_fallback: boolean };
    if (res.status !== 200) throw new Error(`POST /api/cards/recognize answered ${res.status}: ${JSON.stringify(body)}`);
    return { ms: performance.now() - t, body };
  };

  /** Accuracy and latency of `count` photos against issue 17's and 37's goals; `p99Goals` the p99 goals that apply. */
  const measure = async (
    title: string,
    count: number,
    photoOf: (i: number) => Promise<{ jpeg: Buffer; cardId: number; families: string[] }>,
    p99Goals: { firstPass?: number; all: number },
  ) => {
    const times: number[] = [];
    const fallbackTimes: number[] = [];
    let top1 = 0;
    let top5 = 0;
    let confident = 0;
    let confidentWrong = 0;
    const byFamily = new Map<string, { n: number; right: number }>();
    const began = performance.now();
    for (let i = 0; i < count; i++) {
      const { jpeg, cardId, families } = await photoOf(i);
      const { ms, body } = await recognise(jpeg);
      (body.rotation_fallback ? fallbackTimes : times).push(ms);
      const ids = body.candidates.map((c) => c.card_id);
      const right = ids[0] === cardId;
      if (right) top1++;
      if (ids.slice(0, 5).includes(cardId)) top5++;
      if ((body.candidates[0]?.confidence ?? 0) >= 0.9) {
        confident++;
        if (!right) confidentWrong++;
      }
      for (const f of new Set(families)) {
        const entry = byFamily.get(f) ?? { n: 0, right: 0 };
        entry.n++;
        if (right) entry.right++;
        byFamily.set(f, entry);
      }
      if ((i + 1) % 100 === 0) console.log(`  ${i + 1} of ${count} photos (${((performance.now() - began) / 1000).toFixed(0)} s)`);
    }
    const all = [...times, ...fallbackTimes];
    console.log(`${title}: ${count} photos (load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores)`);
    console.log(`  top-1 ${(top1 / count).toFixed(3)} (${atLeast(top1 / count, GOALS.top1)})`);
    console.log(`  top-5 ${(top5 / count).toFixed(3)} (${atLeast(top5 / count, GOALS.top5)})`);
    const wrongShare = confident ? confidentWrong / confident : 0;
    console.log(
      `  confident (>= 0.9): ${confident} answers, ${confidentWrong} wrong = ${(wrongShare * 100).toFixed(2)} % (${atMost(wrongShare, GOALS.confidentWrong)})`,
    );
    for (const [name, { n, right }] of [...byFamily].sort((a, b) => b[1].n - a[1].n))
      if (n >= 10) console.log(`  ${name.padEnd(32)} ${right}/${n} = ${(right / n).toFixed(3)}`);
    console.log(`  latency end to end over HTTP, ${times.length} first-pass and ${fallbackTimes.length} rotation-fallback answers:`);
    console.log(
      `    all: p50 ${percentile(all, 50).toFixed(0)} ms (${atMost(percentile(all, 50), GOALS.p50Ms)}), p99 ${percentile(all, 99).toFixed(0)} ms (${atMost(percentile(all, 99), p99Goals.all)})`,
    );
    if (times.length && p99Goals.firstPass)
      console.log(`    first pass: p99 ${percentile(times, 99).toFixed(0)} ms (${atMost(percentile(times, 99), p99Goals.firstPass)})`);
    if (fallbackTimes.length)
      console.log(
        `    with fallback: p99 ${percentile(fallbackTimes, 99).toFixed(0)} ms (${atMost(percentile(fallbackTimes, 99), GOALS.p99FallbackMs)})`,
      );
  };

  // 1. Accuracy and latency on 500 photos of the first generator.
  const random = randomGenerator(20261124);
  const family = (d: Distortion) =>
    [d.background, d.sleeve ? 'sleeve' : null, d.glare > 0.05 ? 'glare' : null, d.blur >= 1 ? 'blur' : null, d.tilt >= 15 ? 'tilt' : null]
      .filter(Boolean)
      .join('+');
  await measure(
    `old set (test/support/cardPhotos.ts) of ${rows.length} cards (no identical-art reprints among them)`,
    PHOTOS,
    async (i) => {
      const card = rows[Math.floor(random() * rows.length)]!;
      const d = randomDistortion(random);
      const jpeg = await cardPhoto(path.join(scans, `${card.file}.webp`), d, i + 1);
      return { jpeg, cardId: card.id, families: [`set ${card.file.split('/')[0]}`, d.background, family(d)] };
    },
    { firstPass: GOALS.p99Ms, all: GOALS.p99FallbackMs },
  );

  // 2. 12-megapixel photos.
  const big: number[] = [];
  let bigRight = 0;
  for (let i = 0; i < BIG_PHOTOS; i++) {
    const card = rows[Math.floor(random() * rows.length)]!;
    const d = randomDistortion(random, { cardHeight: 1300 + Math.round(random() * 500), canvas: { width: 4000, height: 3000 } });
    const photo = await cardPhoto(path.join(scans, `${card.file}.webp`), d, 10_000 + i);
    const { ms, body } = await recognise(photo);
    big.push(ms);
    if (body.candidates[0]?.card_id === card.id) bigRight++;
  }
  if (BIG_PHOTOS)
    console.log(
      `12-MP photos (${BIG_PHOTOS}, decode included): p50 ${percentile(big, 50).toFixed(0)} ms (${atMost(percentile(big, 50), GOALS.p50Ms)}), p99 ${percentile(big, 99).toFixed(0)} ms (${atMost(percentile(big, 99), GOALS.p99FallbackMs)} with fallback), top-1 ${bigRight}/${BIG_PHOTOS}`,
    );

  // 4. The second generator (test/support/hardPhotos.ts): its tuning part, then, for the final
  // report only (BENCH_HELD_OUT=1), its held-out part: issue 37's goals.
  const cardOfScan = new Map(rows.map((r) => [path.join(scans, `${r.file}.webp`), r.id]));
  const references = referenceScans().filter((f) => cardOfScan.has(f));
  const hardSet = (make: typeof tuningPhoto) => async (i: number) => {
    const p = await make(i, references);
    return { jpeg: p.jpeg, cardId: cardOfScan.get(p.reference)!, families: hardFamilies(p.spec) };
  };
  await measure('new set, tuning part (test/support/hardPhotos.ts)', HARD_PHOTOS, hardSet(tuningPhoto), { all: GOALS.p99FallbackMs });
  if (process.env.BENCH_HELD_OUT === '1')
    await measure('new set, HELD-OUT part (final report)', HARD_PHOTOS, hardSet(heldOutPhoto), { all: GOALS.p99FallbackMs });
  else console.log('new set, held-out part: not generated (the final report only: BENCH_HELD_OUT=1 npm run bench:recognition)');

  // 5. The first photos after a start: a fresh process as an instance starts, warmed as api/main.ts
  // warms it before it reports ready, and not warmed (what the first photo paid before).
  const firstDir = fs.mkdtempSync(path.join(os.tmpdir(), 'holo-first-photo-'));
  try {
    const files: string[] = [];
    for (let i = 0; i < 5; i++) {
      const file = path.join(firstDir, `${i}.jpg`);
      fs.writeFileSync(file, (await tuningPhoto(1000 + i, references)).jpeg);
      files.push(file);
    }
    const child = path.join(repoRoot, 'dist', 'test', 'bench', 'recognitionFirstPhoto.js');
    for (const mode of ['cold', 'warm'] as const) {
      const run = JSON.parse(execFileSync(process.execPath, [child, stack.stores.pg.url, mode, ...files], { encoding: 'utf8' })) as {
        warmMs: number;
        photoMs: number[];
      };
      const first = run.photoMs[0]!;
      console.log(
        `first photo after a start, ${mode === 'warm' ? `warmed before ready (${run.warmMs.toFixed(0)} ms of warm-up)` : 'not warmed'}: ${first.toFixed(0)} ms (${atMost(first, GOALS.p99FallbackMs)}); the next four ${run.photoMs
          .slice(1)
          .map((ms) => ms.toFixed(0))
          .join(', ')} ms (in process, no HTTP; load average ${os.loadavg()[0]!.toFixed(1)})`,
      );
    }
  } finally {
    fs.rmSync(firstDir, { recursive: true, force: true });
  }
} finally {
  await stack.close();
}
