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
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../../sql/paths.js';
import { ImageStore } from '../../sql/stores/images.js';
import { indexCardPictures } from '../../ingest/recognition/indexBuild.js';
import { accountWithKey } from '../support/accounts.js';
import { startStack } from '../support/stack.js';
import { cardPhoto, randomDistortion, randomGenerator, type Distortion } from '../support/cardPhotos.js';

const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 500);
const BIG_PHOTOS = Number(process.env.BENCH_BIG_PHOTOS ?? 40);
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
  const recognize = async (photo: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(photo)]), 'photo.jpg');
    const t = performance.now();
    const res = await fetch(`${stack.url}/api/cards/recognize`, { method: 'POST', headers: account.headers, body: form });
    const body = (await res.json()) as { candidates: { card_id: number; confidence: number }[]; rotation_fallback: boolean };
    if (res.status !== 200) throw new Error(`recognize answered ${res.status}: ${JSON.stringify(body)}`);
    return { ms: performance.now() - t, body };
  };

  // 1. Accuracy and latency on 500 photos.
  const random = randomGenerator(20261124);
  const times: number[] = [];
  const fallbackTimes: number[] = [];
  let top1 = 0;
  let top5 = 0;
  let confident = 0;
  let confidentWrong = 0;
  const byFamily = new Map<string, { n: number; right: number }>();
  const family = (d: Distortion) =>
    [d.background, d.sleeve ? 'sleeve' : null, d.glare > 0.05 ? 'glare' : null, d.blur >= 1 ? 'blur' : null, d.tilt >= 15 ? 'tilt' : null]
      .filter(Boolean)
      .join('+');
  started = performance.now();
  for (let i = 0; i < PHOTOS; i++) {
    const card = rows[Math.floor(random() * rows.length)]!;
    const d = randomDistortion(random);
    const photo = await cardPhoto(path.join(scans, `${card.file}.webp`), d, i + 1);
    const { ms, body } = await recognize(photo);
    (body.rotation_fallback ? fallbackTimes : times).push(ms);
    const ids = body.candidates.map((c) => c.card_id);
    const right = ids[0] === card.id;
    if (right) top1++;
    if (ids.slice(0, 5).includes(card.id)) top5++;
    if ((body.candidates[0]?.confidence ?? 0) >= 0.9) {
      confident++;
      if (!right) confidentWrong++;
    }
    for (const f of new Set([`set ${card.file.split('/')[0]}`, d.background, family(d)])) {
      const entry = byFamily.get(f) ?? { n: 0, right: 0 };
      entry.n++;
      if (right) entry.right++;
      byFamily.set(f, entry);
    }
    if ((i + 1) % 100 === 0) console.log(`  ${i + 1} of ${PHOTOS} photos (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  const all = [...times, ...fallbackTimes];
  console.log(`accuracy on ${PHOTOS} distorted photos of ${rows.length} cards (no identical-art reprints among them):`);
  console.log(`  top-1 ${(top1 / PHOTOS).toFixed(3)} (${atLeast(top1 / PHOTOS, GOALS.top1)})`);
  console.log(`  top-5 ${(top5 / PHOTOS).toFixed(3)} (${atLeast(top5 / PHOTOS, GOALS.top5)})`);
  const wrongShare = confident ? confidentWrong / confident : 0;
  console.log(
    `  confident (>= 0.9): ${confident} answers, ${confidentWrong} wrong = ${(wrongShare * 100).toFixed(2)} % (${atMost(wrongShare, GOALS.confidentWrong)})`,
  );
  for (const [name, { n, right }] of [...byFamily].sort((a, b) => b[1].n - a[1].n))
    if (n >= 10) console.log(`  ${name.padEnd(32)} ${right}/${n} = ${(right / n).toFixed(3)}`);
  console.log(`latency end to end over HTTP, ${times.length} first-pass and ${fallbackTimes.length} rotation-fallback answers:`);
  console.log(
    `  all: p50 ${percentile(all, 50).toFixed(0)} ms (${atMost(percentile(all, 50), GOALS.p50Ms)}), p99 ${percentile(all, 99).toFixed(0)} ms`,
  );
  if (times.length) console.log(`  first pass: p99 ${percentile(times, 99).toFixed(0)} ms (${atMost(percentile(times, 99), GOALS.p99Ms)})`);
  if (fallbackTimes.length)
    console.log(
      `  with fallback: p99 ${percentile(fallbackTimes, 99).toFixed(0)} ms (${atMost(percentile(fallbackTimes, 99), GOALS.p99FallbackMs)})`,
    );

  // 2. 12-megapixel photos.
  const big: number[] = [];
  let bigRight = 0;
  for (let i = 0; i < BIG_PHOTOS; i++) {
    const card = rows[Math.floor(random() * rows.length)]!;
    const d = randomDistortion(random, { cardHeight: 1300 + Math.round(random() * 500), canvas: { width: 4000, height: 3000 } });
    const photo = await cardPhoto(path.join(scans, `${card.file}.webp`), d, 10_000 + i);
    const { ms, body } = await recognize(photo);
    big.push(ms);
    if (body.candidates[0]?.card_id === card.id) bigRight++;
  }
  if (BIG_PHOTOS)
    console.log(
      `12-MP photos (${BIG_PHOTOS}, decode included): p50 ${percentile(big, 50).toFixed(0)} ms (${atMost(percentile(big, 50), GOALS.p50Ms)}), p99 ${percentile(big, 99).toFixed(0)} ms (${atMost(percentile(big, 99), GOALS.p99FallbackMs)} with fallback), top-1 ${bigRight}/${BIG_PHOTOS}`,
    );
} finally {
  await stack.close();
}
