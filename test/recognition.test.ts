// Card recognition over HTTP (issue 17): the demo's real card scans are the index (built by the
// same function the recognitionIndex workflow's activity runs); photos are synthetic camera shots
// of them (test/support/cardPhotos.ts), deterministic per seed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { repoRoot } from '../sql/runtime/paths.js';
import { ImageStore } from '../sql/stores/images.js';
import { cardsOfSetByNumber } from '../sql/recognition.js';
import { LiveRecognitionIndex } from '../ingest/recognition/indexLoad.js';
import { openCv } from '../ingest/recognition/opencv.js';
import { decodePhoto } from '../ingest/recognition/photo.js';
import { RecognitionThreads } from '../ingest/recognition/passWorkers.js';
import { recognisePhoto, type PhotoRecognition } from '../ingest/recognition/recognise.js';
import { createKey } from '../api/auth/accounts.js';
import { createDb } from '../sql/stores/db.js';
import { accountWithKey, type KeyedAccount } from './support/accounts.js';
import { call, callAs } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';
import { cardPhoto, randomDistortion, randomGenerator, type Distortion } from './support/cardPhotos.js';
import { tuningPhoto } from './support/hardPhotos.js';
import { referenceScans } from './support/hardPhotoSets.js';

const scans = path.resolve(repoRoot, '..', 'shared', 'data', 'images');
let stack: Stack;
let collector: KeyedAccount;
/** Card id by picture file (e.g. sv3pt5-6). */
const cardOf = new Map<string, number>();
let absentCard: { file: string; id: number };

async function send(account: KeyedAccount | null, route: string, bytes: Buffer, field = 'file') {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)]), 'photo.jpg');
  const res = await fetch(`${stack.url}${route}`, { method: 'POST', headers: account?.headers ?? {}, body: form });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

const recognise = (bytes: Buffer, account: KeyedAccount | null = collector) => send(account, '/api/cards/recognize', bytes);

function scanFile(name: string): string {
  const folder = name.startsWith('sv3pt5-') ? 'pokemon-sv3pt5' : name.startsWith('2-') ? 'lorcana-2' : 'lorcana-1';
  return path.join(scans, folder, `${name}.webp`);
}

before(async () => {
  stack = await startStack({ recognitionIndex: true });
  const store = new ImageStore(path.join(stack.config.dataDir, 'images'));
  for (const [setKey, prefix] of [
    ['pokemontcg:sv3pt5', 'sv3pt5-'],
    ['lorcanajson:2', '2-'],
    ['lorcanajson:1', '1-'],
  ] as const) {
    for (const r of await cardsOfSetByNumber(stack.stores.pg.pool, setKey)) cardOf.set(`${prefix}${r.collector_number}`, r.id);
  }
  const pictured = await store.cardsWithOriginals();
  assert.ok(pictured.length >= 600, `the demo copies the real scans into the image store (${pictured.length})`);
  // One card is left out of the index: a photo of it must not come back as another card.
  absentCard = { file: 'sv3pt5-25', id: cardOf.get('sv3pt5-25')! };
  await stack.stores.pg.pool.query('DELETE FROM recognition_features WHERE card_id = $1', [absentCard.id]);
  collector = await accountWithKey(stack, 'scanner', 'enterprise');
});
after(() => stack?.close());

/** Candidates come most likely first: an unsure first answer does not make a later one look surer. */
function assertMostLikelyFirst(candidates: { card_id: number; confidence: number }[]): void {
  const confidences = candidates.map((c) => c.confidence);
  assert.deepEqual(
    confidences,
    [...confidences].sort((a, b) => b - a),
    `ordered by confidence: ${JSON.stringify(candidates.map((c) => [c.card_id, c.confidence]))}`,
  );
}

describe('card recognition', () => {
  it('serves the real scan as the card’s picture instead of a placeholder', async () => {
    const res = await stack.get(`/static/images/cards/${cardOf.get('sv3pt5-6')}/large`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-holo-placeholder'), 'false');
  });

  // Each family: one distortion pushed, the rest mild; 10 photos of cards drawn by a fixed seed.
  // Floors are the measured accuracy (README "Card recognition") less a margin.
  const families: { name: string; floor: number; distortion: Partial<Distortion> }[] = [
    { name: 'perspective tilt 15–20°', floor: 0.9, distortion: { tilt: 18 } },
    { name: 'quarter turn + jitter', floor: 0.9, distortion: { quarterTurns: 1, jitter: 6 } },
    { name: 'JPEG quality 35', floor: 0.9, distortion: { jpegQuality: 35 } },
    { name: 'blur 1.5', floor: 0.9, distortion: { blur: 1.5 } },
    { name: 'glare 10 %', floor: 0.9, distortion: { glare: 0.1 } },
    { name: 'cluttered background', floor: 0.9, distortion: { background: 'cluttered' } },
    { name: 'sleeve', floor: 0.9, distortion: { sleeve: true } },
  ];
  const mild: Partial<Distortion> = {
    tilt: 4,
    quarterTurns: 0,
    jitter: 2,
    jpegQuality: 80,
    blur: 0,
    glare: 0,
    background: 'light',
    sleeve: false,
  };
  const names = () => [...cardOf.keys()].filter((n) => n !== absentCard.file && fs.existsSync(scanFile(n))).sort();
  for (const family of families)
    it(`recognises distorted photos: ${family.name} (floor ${family.floor * 100} %)`, async (t) => {
      const pool = names();
      const random = randomGenerator(family.name.length * 7919);
      let right = 0;
      const wrong: string[] = [];
      for (let i = 0; i < 10; i++) {
        const name = pool[Math.floor(random() * pool.length)]!;
        const photo = await cardPhoto(scanFile(name), randomDistortion(random, { ...mild, ...family.distortion }), i + 1);
        const res = await recognise(photo);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        if (res.body.candidates[0]?.card_id === cardOf.get(name)) right++;
        else wrong.push(`${name} → ${res.body.candidates[0]?.name ?? 'nothing'} (${res.body.candidates[0]?.confidence ?? 0})`);
        assertMostLikelyFirst(res.body.candidates);
        if (res.body.candidates[0]?.confidence >= 0.9)
          assert.equal(res.body.candidates[0].card_id, cardOf.get(name), `a confident answer is right (${name})`);
      }
      t.diagnostic(`${family.name}: ${right}/10 right${wrong.length ? `; wrong: ${wrong.join(', ')}` : ''}`);
      assert.ok(right / 10 >= family.floor, `${right}/10 right; wrong: ${wrong.join(', ')}`);
    });

  it('tells the near twins apart: Charizard ex 6, 183 and 199', async (t) => {
    const twins = ['sv3pt5-6', 'sv3pt5-183', 'sv3pt5-199'];
    const confusion: Record<string, Record<string, number>> = {};
    for (const name of twins)
      for (let seed = 1; seed <= 3; seed++) {
        const photo = await cardPhoto(scanFile(name), randomDistortion(randomGenerator(seed * 31), { ...mild, tilt: 8 }), seed);
        const top = (await recognise(photo)).body.candidates[0];
        const said = [...cardOf].find(([, id]) => id === top?.card_id)?.[0] ?? 'nothing';
        (confusion[name] ??= {})[said] = (confusion[name]![said] ?? 0) + 1;
      }
    t.diagnostic(`confusion: ${JSON.stringify(confusion)}`);
    for (const name of twins) assert.equal(confusion[name]![name], 3, `confusion: ${JSON.stringify(confusion)}`);
  });

  it('turns an upside-down photo round and says so', async () => {
    const photo = await cardPhoto(
      scanFile('2-50'),
      randomDistortion(randomGenerator(5), { ...mild, cardHeight: 450, quarterTurns: 2, jitter: 3 }),
      1,
    );
    const res = await recognise(photo);
    assert.equal(res.body.candidates[0].card_id, cardOf.get('2-50'));
    assert.equal(res.body.candidates[0].rotation_used, 180);
    assert.equal(res.body.rotation_fallback, true);
    assert.equal(res.body.capture_quality.verdict, 'likely_real', JSON.stringify(res.body.capture_quality));
  });

  it('flags a photo of a card shown on a screen as likely fake', async () => {
    const photo = await cardPhoto(scanFile('sv3pt5-4'), randomDistortion(randomGenerator(9), { ...mild, screen: true }), 2);
    const res = await recognise(photo);
    assert.equal(res.body.capture_quality.verdict, 'likely_fake', JSON.stringify(res.body.capture_quality));
    assert.ok(res.body.capture_quality.reasons.includes('screen_photo'));
    assert.ok(res.body.capture_quality.signals.screen.value > res.body.capture_quality.signals.screen.threshold);
  });

  it('lists the card among the candidates when clutter beside it was cut out instead', async () => {
    // A photo from bench:recognition's draw where the finder's surest cut is clutter: the card is
    // none of that cut's own five nearest, but another cut tried found it. (A second, 2-210, the
    // card filling the photo below its middle, is missed since the finder prefers the middle of
    // the photo over size: README "Card recognition", issue 37.)
    const cluttered = { quarterTurns: 0, background: 'cluttered', sleeve: false } as const;
    const photos: [string, Distortion, number][] = [
      [
        '1-89',
        {
          ...cluttered,
          cardHeight: 221,
          jitter: -6.4851014986634254,
          tilt: 13.088630638085306,
          brightness: 0.7855525674531236,
          cast: 0.09267296696081757,
          glare: 0.06722398321144284,
          blur: 1.2013784759910777,
          jpegQuality: 54,
        },
        6,
      ],
    ];
    for (const [name, distortion, seed] of photos) {
      const res = await recognise(await cardPhoto(scanFile(name), distortion, seed));
      const ids = res.body.candidates.map((c: { card_id: number }) => c.card_id);
      assert.ok(ids.includes(cardOf.get(name)), `${name} among ${JSON.stringify(res.body.candidates)}`);
      if (ids[0] !== cardOf.get(name)) assert.equal(res.body.capture_quality.verdict, 'needs_manual_review');
    }
  });

  it('answers on its worker threads exactly as on one thread', async () => {
    // Two cluttered photos of the cards above (every stage, both turns, side shifts) and an upside-down one.
    const cases: [string, Partial<Distortion>, number][] = [
      ['1-89', { ...mild, background: 'cluttered', cardHeight: 221, tilt: 13, glare: 0.07, blur: 1.2, jpegQuality: 54 }, 6],
      ['2-210', { ...mild, background: 'cluttered', cardHeight: 389, tilt: 19, jpegQuality: 78 }, 11],
      ['2-50', { ...mild, cardHeight: 450, quarterTurns: 2 }, 1],
    ];
    const cv = await openCv();
    const index = await new LiveRecognitionIndex(stack.stores.pg.pool).current();
    const threads = new RecognitionThreads(2);
    try {
      let passes = 0;
      for (const [name, distortion, seed] of cases) {
        const photo = await decodePhoto(await cardPhoto(scanFile(name), randomDistortion(randomGenerator(seed), distortion), seed));
        assert.ok(!('refused' in photo));
        const answer = (r: PhotoRecognition) => ({
          candidates: r.candidates,
          quality: r.quality,
          quads: r.quads.map((q) => q.quad),
          passes: r.passes,
        });
        const single = answer(await recognisePhoto(cv, index, photo));
        const spread = answer(await recognisePhoto(cv, index, photo, threads));
        assert.deepEqual(spread, single, name);
        passes += single.passes;
      }
      assert.ok(passes > 20, `the photos needed many passes (${passes})`);
      assert.ok(threads.passesRun >= passes, `the threads ran the passes (${threads.passesRun} of ${passes})`);
    } finally {
      await threads.close();
    }
  });

  it('does not match a card absent from the index confidently', async () => {
    for (let seed = 1; seed <= 3; seed++) {
      const photo = await cardPhoto(scanFile(absentCard.file), randomDistortion(randomGenerator(seed), mild), seed);
      const res = await recognise(photo);
      assert.equal(res.status, 200);
      assert.equal(res.body.capture_quality.verdict, 'needs_manual_review', JSON.stringify(res.body.capture_quality));
      assert.ok(!res.body.candidates.some((c: { card_id: number }) => c.card_id === absentCard.id));
      assert.ok((res.body.candidates[0]?.confidence ?? 0) < 0.5);
      assertMostLikelyFirst(res.body.candidates);
    }
  });

  it('confirms a scan once, into the collection when asked, and only for its owner', async () => {
    const photo = await cardPhoto(scanFile('2-10'), randomDistortion(randomGenerator(3), mild), 3);
    const recognised = (await recognise(photo)).body;
    assert.ok(recognised.recognition_id);
    const other = await accountWithKey(stack, 'otherscanner', 'pro');
    const body = { recognition_id: recognised.recognition_id, card_id: cardOf.get('2-11'), add_to_collection: true };
    assert.equal((await callAs(stack, other, 'POST', '/api/cards/recognize/confirm', body)).status, 404);
    const confirmed = await callAs(stack, collector, 'POST', '/api/cards/recognize/confirm', body);
    assert.equal(confirmed.status, 201, JSON.stringify(confirmed.body));
    assert.equal(confirmed.body.suggestion_was_right, false, 'a correction is recorded as one');
    assert.equal(confirmed.body.collection_entry!.card_id, cardOf.get('2-11'));
    assert.equal((await callAs(stack, collector, 'POST', '/api/cards/recognize/confirm', body)).status, 409);
    const collection = await callAs(stack, collector, 'GET', '/collection');
    assert.equal(collection.body.items.filter((e: { card_id: number }) => e.card_id === cardOf.get('2-11')).length, 1, 'added once');
  });

  it('finds the card’s edges without matching', async () => {
    const photo = await cardPhoto(scanFile('sv3pt5-100'), randomDistortion(randomGenerator(4), { ...mild, cardHeight: 500 }), 4);
    const res = await send(collector, '/api/cards/detect-edges', photo);
    assert.equal(res.status, 200);
    assert.equal(res.body.card_found, true);
    assert.equal(res.body.hint, 'ok');
    assert.ok(Math.abs(res.body.aspect_ratio - 63 / 88) < 0.06, String(res.body.aspect_ratio));
    const blank = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#777' } })
      .jpeg()
      .toBuffer();
    assert.deepEqual([(await send(collector, '/api/cards/detect-edges', blank)).body.hint], ['no_card']);
  });

  it('recognises the card framed in the middle of a binder page, not a neighbour or the page', async () => {
    // Tuning photos of the second generator (test/support/hardPhotos.ts) on its procedural tables:
    // the card in one pocket of a 3 x 3 page, its neighbours partly in frame, a thumb or low light.
    // The finder once ranked quadrilaterals by their size, so a neighbour or a span of pockets won.
    const references = referenceScans();
    for (const i of [101, 148, 192]) {
      const photo = await tuningPhoto(i, references);
      assert.equal(photo.spec.scene, 'binder');
      const name = path.basename(photo.reference, '.webp');
      const res = await recognise(photo.jpeg);
      assert.equal(res.status, 200);
      assert.equal(res.body.candidates[0]?.card_id, cardOf.get(name), `${i}: ${name} first in ${JSON.stringify(res.body.candidates)}`);
    }
  });

  it('recognises the centred card past a sure neighbour, a card whose quadrilaterals have one side off it, and a dim card', async () => {
    // Tuning photos the finder once missed (npm run bench:recognition-misses): 255, a dim binder page
    // whose pocket below the card was matched sure before the card in the middle was tried; 299 (a
    // dim page) and 156 (a sleeved card on a pile, a thumb over it), where the best line
    // quadrilaterals had three sides on the card and one on a pocket's edge or the card's frame, and
    // only the side shifts from them (not from the cuts that matched least badly) reach the card;
    // 109, a dim photo whose card edges only clear Canny's thresholds with the contrast stretched.
    const references = referenceScans();
    for (const i of [255, 299, 156, 109]) {
      const photo = await tuningPhoto(i, references);
      const name = path.basename(photo.reference, '.webp');
      const res = await recognise(photo.jpeg);
      assert.equal(res.status, 200);
      const first = res.body.candidates[0];
      assert.equal(first?.card_id, cardOf.get(name), `${i}: ${name} first in ${JSON.stringify(res.body.candidates)}`);
      assert.ok(first.confidence >= 0.9, `${i}: sure of ${name} (${first.confidence})`);
    }
  });

  it('recognises a tilted card with a thumb over one corner', async () => {
    // Tuning photos the finder once missed (npm run bench:recognition-misses), each tilted 19-25°
    // with a thumb over a corner: 77 (a pile, motion blur; the card's side by the thumb too faint
    // for Hough), 283 (a cat photo, two sides lost in motion blur). Seen at that tilt a card is up to
    // ~10 % off 63:88, so its quadrilateral ranked below clutter's, and a side completed square-on
    // from the other three landed ~10 % off the card; the finder now undoes the perspective.
    const references = referenceScans();
    for (const i of [77, 283]) {
      const photo = await tuningPhoto(i, references);
      assert.ok(photo.spec.thumb && photo.spec.tilt >= 18, `${i}: a thumb and a tilt`);
      const name = path.basename(photo.reference, '.webp');
      const res = await recognise(photo.jpeg);
      assert.equal(res.status, 200);
      assert.equal(res.body.candidates[0]?.card_id, cardOf.get(name), `${i}: ${name} first in ${JSON.stringify(res.body.candidates)}`);
    }
  });

  it('refuses bad input with a clear 4xx and keeps serving', async () => {
    const jpeg = await cardPhoto(scanFile('sv3pt5-1'), randomDistortion(randomGenerator(1), mild), 1);
    const cases: [string, Buffer, number, string?][] = [
      ['not an image', Buffer.from('hello, this is text'), 415],
      ['a truncated JPEG', jpeg.subarray(0, Math.floor(jpeg.length / 2)), 415],
      [
        'a 1×1 PNG',
        await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
          .png()
          .toBuffer(),
        422,
      ],
      [
        'a 60-megapixel PNG (decompression bomb)',
        await sharp({ create: { width: 10_000, height: 6_000, channels: 3, background: '#000' } })
          .png({ compressionLevel: 9 })
          .toBuffer(),
        413,
      ],
      ['the wrong field name', jpeg, 422, 'image'],
    ];
    for (const [what, bytes, status, field] of cases) {
      const res = await send(collector, '/api/cards/recognize', bytes, field);
      assert.equal(res.status, status, `${what}: ${JSON.stringify(res.body)}`);
      assert.ok(res.body.detail, `${what} answers in the spec's shape`);
    }
    assert.equal((await recognise(jpeg)).status, 200, 'still serving');
  });

  it('needs Starter or a session, and holds a Starter key to 25 a day under parallel calls', async () => {
    const free = await accountWithKey(stack, 'freescanner', 'free');
    const photo = await sharp({ create: { width: 300, height: 400, channels: 3, background: '#356' } })
      .jpeg()
      .toBuffer();
    assert.equal((await recognise(photo, free)).status, 403);
    const starter = await accountWithKey(stack, 'starterscanner', 'starter');
    const answers = await Promise.all(Array.from({ length: 30 }, () => recognise(photo, starter)));
    const statuses = answers.map((a) => a.status);
    assert.deepEqual([statuses.filter((s) => s === 200).length, statuses.filter((s) => s === 429).length], [25, 5]);
    const refused = answers.find((a) => a.status === 429)!;
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 86_400, String(retryAfter));
    const info = await call(stack, 'GET', '/api/developer/info', { headers: starter.headers });
    assert.equal(info.body.recognition.per_day, 25);
    assert.equal(info.body.recognition.remaining, 0);
    // A key issued below its account's tier shows the quota it is held to: its own tier's.
    const pro = await accountWithKey(stack, 'proscanner', 'pro');
    const { key } = await createKey(createDb(stack.stores.pg.pool), pro.user, { name: 'starter key', tier: 'starter' });
    const below = await call(stack, 'GET', '/api/developer/info', { headers: { 'X-API-Key': key } });
    assert.equal(below.body.recognition.per_day, 25);
  });
});
