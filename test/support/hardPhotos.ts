// A second generator of camera photos of reference scans, written apart from cardPhotos.ts (its own
// random numbers, scene, projection and distortions) so that recognition is measured on photos it
// was not tuned to. A photo is a scene laid out flat (a 3 × 3 binder page with the card in one
// pocket, a pile, or a table with other cards beside it; on a real photograph from scikit-image's
// wheel or a procedural wood or cloth), the card in a penny sleeve or a toploader or bare, then seen
// by a camera: a quarter turn and up to ±10°, tilted up to 25° about any axis, a thumb over a
// corner, a glare spot, low light with noise, a colour cast, motion or focus blur, JPEG 55–88.
//
// Two parts with their own seeds and their own backgrounds: `tuning`, for measuring while changing
// recognition, and `held-out`, which only the benchmark's final report generates (heldOutPhoto
// refuses unless BENCH_HELD_OUT=1): nothing tuned reads it by accident.
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { openCv, withMats } from '../../ingest/recognition/opencv.js';
import type { Point, Quad } from '../../ingest/recognition/photo.js';
import { backgroundPhotosDir, type BackgroundPhoto } from './photoBackgrounds.js';

export type HardPart = 'tuning' | 'held-out';
export type Scene = 'binder' | 'pile' | 'table';
export type Holder = 'bare' | 'penny sleeve' | 'toploader';
type Procedural = 'pine' | 'green cloth' | 'walnut' | 'blue cloth';
type Surface = BackgroundPhoto | Procedural;

/** How one photo was made (for the benchmark's breakdown by family). */
export type HardSpec = {
  scene: Scene;
  surface: Surface;
  holder: Holder;
  /** Card width in the photo before the tilt, pixels. */
  cardWidth: number;
  quarterTurns: number;
  roll: number;
  tilt: number;
  thumb: boolean;
  glare: boolean;
  lowLight: boolean;
  cast: string;
  blur: 'none' | 'motion' | 'focus';
  jpegQuality: number;
};

export type HardPhoto = {
  jpeg: Buffer;
  /** The reference scan photographed. */
  reference: string;
  /** Its face's corners in the photo's pixels: the card's own top-left, top-right, bottom-right, bottom-left. */
  quad: Quad;
  /** The other cards' faces in the photo (partly outside it, or under the card, as laid). */
  others: Quad[];
  spec: HardSpec;
};

const PARTS: Record<HardPart, { seed: number; surfaces: Surface[]; binderPages: string[] }> = {
  tuning: {
    seed: 0x51c0_0001,
    surfaces: ['brick.png', 'grass.png', 'coffee.png', 'chelsea.png', 'camera.png', 'page.png', 'pine', 'green cloth'],
    binderPages: ['#141416', '#1b2433', '#2a2a2e'],
  },
  'held-out': {
    seed: 0x7a11_0002,
    surfaces: ['gravel.png', 'coins.png', 'astronaut.png', 'rocket.jpg', 'ihc.png', 'motorcycle_left.png', 'walnut', 'blue cloth'],
    binderPages: ['#3a1717', '#5a5a5e', '#0f2a1a'],
  },
};

/** The families a photo counts in, for breakdowns of accuracy. */
export function hardFamilies(s: HardSpec): string[] {
  return [
    s.scene,
    s.holder,
    ...(s.thumb ? ['thumb'] : []),
    ...(s.glare ? ['glare'] : []),
    ...(s.lowLight ? ['low light'] : []),
    ...(s.blur !== 'none' ? [`${s.blur} blur`] : []),
    ...(s.tilt >= 18 ? ['tilt >= 18'] : []),
  ];
}

/** Photo `i` of the tuning part, of one of `references` (reference scan files). */
export function tuningPhoto(i: number, references: string[]): Promise<HardPhoto> {
  return hardPhoto('tuning', i, references);
}

/** Photo `i` of the held-out part: only for the benchmark's final report (BENCH_HELD_OUT=1). */
export function heldOutPhoto(i: number, references: string[]): Promise<HardPhoto> {
  if (process.env.BENCH_HELD_OUT !== '1')
    throw new Error('the held-out photos are for the final report only (BENCH_HELD_OUT=1 npm run bench:recognition)');
  return hardPhoto('held-out', i, references);
}

/** Mulberry32: small, fast, and not the generator cardPhotos.ts draws from. */
function mulberry(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = { (): number; between(a: number, b: number): number; pick<T>(xs: readonly T[]): T; chance(p: number): boolean };

function randomOf(seed: number): Random {
  const next = mulberry(seed);
  const r = (() => next()) as Random;
  r.between = (a, b) => a + (b - a) * next();
  r.pick = (xs) => xs[Math.floor(next() * xs.length)]!;
  r.chance = (p) => next() < p;
  return r;
}

async function hardPhoto(part: HardPart, i: number, references: string[]): Promise<HardPhoto> {
  const { seed, surfaces, binderPages } = PARTS[part];
  const random = randomOf(seed + 7919 * i);
  const reference = random.pick(references);
  const others = () => random.pick(references.filter((r) => r !== reference));
  const spec: HardSpec = {
    scene: random.pick(['binder', 'binder', 'pile', 'table'] as const),
    surface: random.pick(surfaces),
    holder: random.pick(['bare', 'bare', 'penny sleeve', 'toploader'] as const),
    cardWidth: Math.round(random.between(380, 680)),
    quarterTurns: Math.floor(random() * 4),
    roll: random.between(-10, 10),
    tilt: random.between(0, 25),
    thumb: random.chance(0.3),
    glare: random.chance(0.5),
    lowLight: random.chance(0.3),
    cast: random.pick(['none', 'none', 'warm', 'cool', 'green', 'magenta'] as const),
    blur: random.pick(['none', 'none', 'motion', 'focus'] as const),
    jpegQuality: Math.round(random.between(55, 88)),
  };
  if (spec.scene === 'binder') spec.holder = 'bare';

  // The scene laid out flat, the card's centre at the middle; the card at most 440 px wide there
  // (the canonical cut is 240: more only costs time).
  const cw = Math.min(spec.cardWidth, 440);
  const ch = Math.round((cw * 88) / 63);
  const FW = Math.round(3.8 * cw);
  const FH = Math.round(3.0 * ch);
  const layers: OverlayOptions[] = [];
  const faces: Point[][] = [];
  const place = async (file: string, cx: number, cy: number, degrees: number) => {
    const card = await sharp(file)
      .resize(cw, ch, { fit: 'fill' })
      .ensureAlpha()
      .rotate(degrees, { background: '#0000' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    layers.push(
      cropped(
        card.data,
        card.info.width,
        card.info.height,
        Math.round(cx - card.info.width / 2),
        Math.round(cy - card.info.height / 2),
        FW,
        FH,
      ),
    );
    const face = turnedRect(cx, cy, cw, ch, degrees);
    faces.push(face);
    return face;
  };
  let targetFace: Point[] = [];
  const base = await surface(spec.surface, FW, FH, random);
  const overlays: string[] = [];
  const middle = { x: FW / 2, y: FH / 2 };
  if (spec.scene === 'binder') {
    const pitch = { x: 1.07 * cw, y: 1.05 * ch };
    const row = Math.floor(random() * 3);
    const col = Math.floor(random() * 3);
    const x0 = middle.x - col * pitch.x;
    const y0 = middle.y - row * pitch.y;
    const margin = 0.18 * cw;
    const page = random.pick(binderPages);
    overlays.push(
      `<rect x="${x0 - pitch.x / 2 - margin}" y="${y0 - pitch.y / 2 - margin}" width="${3 * pitch.x + 2 * margin}" height="${3 * pitch.y + 2 * margin}" rx="${0.05 * cw}" fill="${page}"/>`,
    );
    for (let r = 0; r < 3; r++)
      for (let c = 0; c < 3; c++) {
        const x = x0 + c * pitch.x;
        const y = y0 + r * pitch.y;
        // The pocket's welded seams, a little lighter than the page.
        overlays.push(
          `<rect x="${x - pitch.x / 2 + 3}" y="${y - pitch.y / 2 + 3}" width="${pitch.x - 6}" height="${pitch.y - 6}" fill="none" stroke="rgba(200,205,215,0.35)" stroke-width="${Math.max(2, 0.012 * cw)}"/>`,
        );
      }
    const under = svgLayer(FW, FH, overlays.splice(0));
    layers.push({ input: under });
    for (let r = 0; r < 3; r++)
      for (let c = 0; c < 3; c++) {
        const target = r === row && c === col;
        if (!target && random.chance(0.12)) continue;
        const x = x0 + c * pitch.x + random.between(-0.01, 0.01) * cw;
        const y = y0 + r * pitch.y + random.between(-0.01, 0.01) * ch;
        if (target) Object.assign(middle, { x, y });
        if (target) targetFace = await place(reference, x, y, 0);
        else await place(others(), x, y, random.between(-1.5, 1.5));
      }
    // The page's plastic: one sheen across it.
    overlays.push(sheen(FW, FH, random, 0.22));
  } else {
    const count = spec.scene === 'pile' ? 2 + Math.floor(random() * 3) : 1 + Math.floor(random() * 3);
    for (let k = 0; k < count; k++) {
      const angle = random.between(0, 2 * Math.PI);
      // A pile's cards overlap the card under it; a table's lie beside it, a little apart.
      const reach = spec.scene === 'pile' ? random.between(0.3, 0.8) : random.between(1.05, 1.35);
      const x = middle.x + Math.cos(angle) * reach * (Math.abs(Math.cos(angle)) * cw + Math.abs(Math.sin(angle)) * ch);
      const y = middle.y + Math.sin(angle) * reach * (Math.abs(Math.cos(angle)) * cw + Math.abs(Math.sin(angle)) * ch);
      await place(others(), x, y, spec.scene === 'pile' ? random.between(-40, 40) : random.between(-8, 8));
    }
    targetFace = await place(reference, middle.x, middle.y, 0);
  }
  if (spec.holder !== 'bare') overlays.push(...holder(spec.holder, middle, cw, ch, random));
  if (overlays.length) layers.push({ input: svgLayer(FW, FH, overlays) });
  const flat = await sharp(base, { raw: { width: FW, height: FH, channels: 3 } })
    .composite(layers)
    .removeAlpha()
    .raw()
    .toBuffer();

  // The camera: a frame around the card, the flat scene turned, tilted and projected onto it.
  const turned = spec.quarterTurns % 2 === 1;
  const photoShort = Math.round(
    turned ? spec.cardWidth * (88 / 63) * random.between(1.2, 1.5) : spec.cardWidth * random.between(1.45, 2.1),
  );
  const portrait = random.chance(0.7);
  const PW = portrait ? photoShort : Math.round((photoShort * 4) / 3);
  const PH = portrait ? Math.round((photoShort * 4) / 3) : photoShort;
  let scale = spec.cardWidth / cw;
  const axis = random.between(0, Math.PI);
  const offset = { x: random.between(-0.06, 0.06) * PW, y: random.between(-0.06, 0.06) * PH };
  let project: (p: Point) => Point;
  let quad: Quad;
  for (;;) {
    project = camera({
      centre: middle,
      scale,
      roll: spec.quarterTurns * 90 + spec.roll,
      tilt: spec.tilt,
      axis,
      focal: 1.1 * Math.max(PW, PH),
      at: { x: PW / 2 + offset.x, y: PH / 2 + offset.y },
    });
    quad = targetFace.map(project) as Quad;
    if (quad.every((p) => p.x >= 4 && p.y >= 4 && p.x <= PW - 4 && p.y <= PH - 4)) break;
    scale *= 0.93;
  }
  const cv = await openCv();
  const rgb = withMats((keep) => {
    const src = keep(cv.matFromArray(FH, FW, cv.CV_8UC3, flat));
    const corners = [
      { x: 0, y: 0 },
      { x: FW, y: 0 },
      { x: FW, y: FH },
      { x: 0, y: FH },
    ];
    const from = keep(
      cv.matFromArray(
        4,
        1,
        cv.CV_32FC2,
        corners.flatMap((p) => [p.x, p.y]),
      ),
    );
    const to = keep(
      cv.matFromArray(
        4,
        1,
        cv.CV_32FC2,
        corners.map(project).flatMap((p) => [p.x, p.y]),
      ),
    );
    const out = keep(new cv.Mat());
    cv.warpPerspective(src, out, keep(cv.getPerspectiveTransform(from, to)), new cv.Size(PW, PH), cv.INTER_LINEAR, cv.BORDER_REFLECT);
    return Uint8Array.from(out.data);
  });
  const othersInPhoto = faces.filter((f) => f !== targetFace).map((f) => f.map(project) as Quad);

  // What the camera adds: a thumb, a glare spot, the light, blur, noise and JPEG.
  let photo: Uint8Array = rgb;
  if (spec.thumb) photo = await withThumb(photo, PW, PH, quad, random);
  if (spec.glare) glareSpot(photo, PW, PH, quad, random);
  light(photo, PW, PH, spec, random);
  if (spec.blur !== 'none') photo = blurred(cv, photo, PW, PH, spec.blur, random);
  noise(photo, spec.lowLight ? random.between(5, 12) : random.between(1, 4), random);
  const jpeg = await sharp(photo, { raw: { width: PW, height: PH, channels: 3 } })
    .jpeg({ quality: spec.jpegQuality })
    .toBuffer();
  return { jpeg, reference, quad, others: othersInPhoto, spec };
}

/** A raw RGBA layer cut to the part of it inside a `W` × `H` canvas at (left, top). */
function cropped(data: Buffer, width: number, height: number, left: number, top: number, W: number, H: number): OverlayOptions {
  const x0 = Math.max(0, -left);
  const y0 = Math.max(0, -top);
  const x1 = Math.min(width, W - left);
  const y1 = Math.min(height, H - top);
  if (x1 <= x0 || y1 <= y0) return { input: Buffer.alloc(4), raw: { width: 1, height: 1, channels: 4 }, left: 0, top: 0 };
  const w = x1 - x0;
  const h = y1 - y0;
  const out = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y++) data.copy(out, y * w * 4, ((y + y0) * width + x0) * 4, ((y + y0) * width + x1) * 4);
  return { input: out, raw: { width: w, height: h, channels: 4 }, left: left + x0, top: top + y0 };
}

/** The corners of a `w` × `h` rectangle centred at (cx, cy) turned `degrees` clockwise: top-left first, clockwise. */
function turnedRect(cx: number, cy: number, w: number, h: number, degrees: number): Point[] {
  const a = (degrees * Math.PI) / 180;
  return [
    [-w / 2, -h / 2],
    [w / 2, -h / 2],
    [w / 2, h / 2],
    [-w / 2, h / 2],
  ].map(([x, y]) => ({ x: cx + x! * Math.cos(a) - y! * Math.sin(a), y: cy + x! * Math.sin(a) + y! * Math.cos(a) }));
}

function svgLayer(W: number, H: number, shapes: string[]): Buffer {
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${shapes.join('')}</svg>`);
}

let gradients = 0;

/** A broad diagonal band of reflected light (a sleeve's or a binder page's plastic). */
function sheen(W: number, H: number, random: Random, strength: number): string {
  const id = `sheen${gradients++}`;
  const at = random.between(0.2, 0.8);
  const x1 = random.between(0, 1);
  return `<defs><linearGradient id="${id}" x1="${x1}" y1="0" x2="${1 - x1}" y2="1"><stop offset="${at - 0.15}" stop-color="white" stop-opacity="0"/><stop offset="${at}" stop-color="white" stop-opacity="${strength * random.between(0.4, 1)}"/><stop offset="${at + 0.15}" stop-color="white" stop-opacity="0"/></linearGradient></defs><rect width="${W}" height="${H}" fill="url(#${id})"/>`;
}

/** A penny sleeve (a thin clear margin, its edge catching light) or a toploader (a thick rim and an inner ridge: a second border). */
function holder(kind: Holder, c: Point, cw: number, ch: number, random: Random): string[] {
  const id = `holder${gradients++}`;
  const m =
    kind === 'toploader'
      ? { side: 0.07 * cw, top: 0.14 * cw, bottom: 0.06 * cw }
      : { side: 0.025 * cw, top: 0.06 * cw, bottom: 0.025 * cw };
  const x = c.x - cw / 2 - m.side;
  const y = c.y - ch / 2 - m.top;
  const w = cw + 2 * m.side;
  const h = ch + m.top + m.bottom;
  const at = random.between(0.25, 0.75);
  const band = `<defs><linearGradient id="${id}" x1="0" y1="${random.between(0, 1)}" x2="1" y2="${random.between(0, 1)}"><stop offset="${at - 0.2}" stop-color="white" stop-opacity="0"/><stop offset="${at}" stop-color="white" stop-opacity="${random.between(0.15, 0.4)}"/><stop offset="${at + 0.2}" stop-color="white" stop-opacity="0"/></linearGradient></defs><rect x="${x}" y="${y}" width="${w}" height="${h}" fill="url(#${id})"/>`;
  if (kind === 'penny sleeve')
    return [
      `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="rgba(235,240,245,0.08)" stroke="rgba(255,255,255,0.55)" stroke-width="${Math.max(1.5, 0.006 * cw)}"/>`,
      band,
    ];
  const rim = Math.max(3, 0.02 * cw);
  return [
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${0.02 * cw}" fill="rgba(225,232,240,0.14)" stroke="rgba(245,248,252,0.7)" stroke-width="${rim}"/>`,
    `<rect x="${x + 2 * rim}" y="${y + 2 * rim}" width="${w - 4 * rim}" height="${h - 4 * rim}" rx="${0.015 * cw}" fill="none" stroke="rgba(30,30,35,0.35)" stroke-width="${Math.max(1.5, rim / 2)}"/>`,
    band,
  ];
}

const PROCEDURAL: Record<Procedural, [number, number, number]> = {
  pine: [196, 152, 104],
  walnut: [92, 60, 40],
  'green cloth': [38, 96, 62],
  'blue cloth': [30, 48, 96],
};
const isProcedural = (s: Surface): s is Procedural => s in PROCEDURAL;

/** The table: a real photograph cropped to cover it, or a procedural wood or cloth. */
async function surface(kind: Surface, W: number, H: number, random: Random): Promise<Buffer> {
  if (!isProcedural(kind)) {
    const file = path.join(await backgroundPhotosDir(), kind);
    const meta = await sharp(file).metadata();
    // A random window of the photograph (at least half of it), stretched to the table.
    const fw = Math.round(meta.width! * random.between(0.5, 1));
    const fh = Math.round(meta.height! * random.between(0.5, 1));
    const left = Math.floor(random() * (meta.width! - fw + 1));
    const top = Math.floor(random() * (meta.height! - fh + 1));
    return sharp(file)
      .extract({ left, top, width: fw, height: fh })
      .toColourspace('srgb')
      .removeAlpha()
      .resize(W, H, { fit: 'fill' })
      .raw()
      .toBuffer();
  }
  // Drawn at a quarter of the size and stretched: the pattern is smooth at that scale.
  const [W4, H4] = [Math.ceil(W / 4), Math.ceil(H / 4)];
  const out = Buffer.alloc(W4 * H4 * 3);
  const wood = kind === 'pine' || kind === 'walnut';
  const [r0, g0, b0] = PROCEDURAL[kind];
  const rings = random.between(0.02, 0.05);
  const phase = random.between(0, 100);
  for (let y4 = 0; y4 < H4; y4++)
    for (let x4 = 0; x4 < W4; x4++) {
      const [x, y] = [4 * x4, 4 * y4];
      // Wood: grain along x, rings bent by a slow wave. Cloth: a weave and soft mottling.
      const v = wood
        ? 0.82 + 0.18 * Math.sin(rings * (y + 18 * Math.sin(x / 90 + phase)) + Math.sin(x / 31) * 0.6)
        : 0.9 + 0.05 * Math.sin(x4 * 1.7) * Math.sin(y4 * 1.7) + 0.05 * Math.sin(x / 70 + phase) * Math.cos(y / 55);
      const o = 3 * (y4 * W4 + x4);
      out[o] = Math.min(255, r0 * v);
      out[o + 1] = Math.min(255, g0 * v);
      out[o + 2] = Math.min(255, b0 * v);
    }
  return sharp(out, { raw: { width: W4, height: H4, channels: 3 } })
    .resize(W, H, { fit: 'fill' })
    .raw()
    .toBuffer();
}

/** A pinhole camera: the flat scene turned by `roll`, tilted by `tilt` about an in-plane axis at `axis` radians, scaled and projected. */
function camera(o: {
  centre: Point;
  scale: number;
  roll: number;
  tilt: number;
  axis: number;
  focal: number;
  at: Point;
}): (p: Point) => Point {
  const roll = (o.roll * Math.PI) / 180;
  const t = (o.tilt * Math.PI) / 180;
  const [ux, uy] = [Math.cos(o.axis), Math.sin(o.axis)];
  const [c, s] = [Math.cos(t), Math.sin(t)];
  return (p) => {
    const dx = (p.x - o.centre.x) * o.scale;
    const dy = (p.y - o.centre.y) * o.scale;
    const x = dx * Math.cos(roll) - dy * Math.sin(roll);
    const y = dx * Math.sin(roll) + dy * Math.cos(roll);
    // Rodrigues' rotation of (x, y, 0) about the unit axis (ux, uy, 0).
    const along = ux * x + uy * y;
    const X = x * c + ux * along * (1 - c);
    const Y = y * c + uy * along * (1 - c);
    const Z = (ux * y - uy * x) * s;
    const depth = o.focal + Z;
    return { x: o.at.x + (o.focal * X) / depth, y: o.at.y + (o.focal * Y) / depth };
  };
}

/** A thumb over one of the card's corners: a skin-toned rounded shape coming in from outside. */
async function withThumb(rgb: Uint8Array, W: number, H: number, quad: Quad, random: Random): Promise<Uint8Array> {
  const k = Math.floor(random() * 4);
  const centre = { x: quad.reduce((s, p) => s + p.x, 0) / 4, y: quad.reduce((s, p) => s + p.y, 0) / 4 };
  const corner = quad[k]!;
  const width = Math.hypot(quad[1].x - quad[0].x, quad[1].y - quad[0].y);
  const out = Math.atan2(corner.y - centre.y, corner.x - centre.x) + random.between(-0.4, 0.4);
  const length = width * random.between(0.3, 0.42);
  const depth = random.between(0.1, 0.2) * width;
  const at = { x: corner.x + Math.cos(out) * (length - depth), y: corner.y + Math.sin(out) * (length - depth) };
  const [r, g, b] = random.pick([
    [224, 172, 140],
    [198, 134, 100],
    [141, 85, 54],
    [241, 194, 170],
  ] as const);
  const id = `thumb${gradients++}`;
  const svg = svgLayer(W, H, [
    `<defs><radialGradient id="${id}" cx="0.4" cy="0.35" r="0.7"><stop offset="0" stop-color="rgb(${Math.min(255, r + 25)},${Math.min(255, g + 25)},${Math.min(255, b + 25)})"/><stop offset="1" stop-color="rgb(${r * 0.7},${g * 0.7},${b * 0.7})"/></radialGradient></defs>`,
    `<ellipse cx="${at.x}" cy="${at.y}" rx="${length}" ry="${length * 0.45}" fill="url(#${id})" transform="rotate(${(out * 180) / Math.PI} ${at.x} ${at.y})"/>`,
  ]);
  const data = await sharp(rgb, { raw: { width: W, height: H, channels: 3 } })
    .composite([{ input: svg }])
    .removeAlpha()
    .raw()
    .toBuffer();
  return new Uint8Array(data.buffer, data.byteOffset, data.length);
}

/** A round spot of reflected light somewhere on the card. */
function glareSpot(rgb: Uint8Array, W: number, H: number, quad: Quad, random: Random): void {
  const u = random.between(0.15, 0.85);
  const v = random.between(0.15, 0.85);
  const top = { x: quad[0].x + u * (quad[1].x - quad[0].x), y: quad[0].y + u * (quad[1].y - quad[0].y) };
  const bottom = { x: quad[3].x + u * (quad[2].x - quad[3].x), y: quad[3].y + u * (quad[2].y - quad[3].y) };
  const c = { x: top.x + v * (bottom.x - top.x), y: top.y + v * (bottom.y - top.y) };
  const radius = random.between(0.08, 0.3) * Math.hypot(quad[1].x - quad[0].x, quad[1].y - quad[0].y);
  const strength = random.between(100, 260);
  const reach = 2.5 * radius;
  for (let y = Math.max(0, Math.floor(c.y - reach)); y < Math.min(H, c.y + reach); y++)
    for (let x = Math.max(0, Math.floor(c.x - reach)); x < Math.min(W, c.x + reach); x++) {
      const add = strength * Math.exp(-((x - c.x) ** 2 + (y - c.y) ** 2) / (radius * radius));
      const o = 3 * (y * W + x);
      for (let k = 0; k < 3; k++) rgb[o + k] = Math.min(255, rgb[o + k]! + add);
    }
}

const CASTS: Record<string, [number, number, number]> = {
  none: [1, 1, 1],
  warm: [1.12, 1, 0.76],
  cool: [0.84, 0.98, 1.15],
  green: [0.9, 1.1, 0.88],
  magenta: [1.08, 0.86, 1.06],
};

/** Exposure (dim in low light), a vignette and the colour cast. */
function light(rgb: Uint8Array, W: number, H: number, spec: HardSpec, random: Random): void {
  const gain = spec.lowLight ? random.between(0.3, 0.55) : random.between(0.8, 1.15);
  const vignette = random.between(0, 0.35);
  const cast = CASTS[spec.cast]!;
  const halfSq = (W / 2) ** 2 + (H / 2) ** 2;
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const g = gain * (1 - (vignette * ((x - W / 2) ** 2 + (y - H / 2) ** 2)) / halfSq);
      const o = 3 * (y * W + x);
      rgb[o] = Math.min(255, rgb[o]! * g * cast[0]);
      rgb[o + 1] = Math.min(255, rgb[o + 1]! * g * cast[1]);
      rgb[o + 2] = Math.min(255, rgb[o + 2]! * g * cast[2]);
    }
}

/** Motion blur (a straight streak 5–17 px long at any angle) or a focus blur. */
function blurred(
  cv: Awaited<ReturnType<typeof openCv>>,
  rgb: Uint8Array,
  W: number,
  H: number,
  kind: 'motion' | 'focus',
  random: Random,
): Uint8Array {
  return withMats((keep) => {
    const src = keep(cv.matFromArray(H, W, cv.CV_8UC3, rgb));
    const out = keep(new cv.Mat());
    if (kind === 'focus') cv.GaussianBlur(src, out, new cv.Size(0, 0), random.between(0.8, 2));
    else {
      const length = Math.round((random.between(5, 17) * Math.max(W, H)) / 1600) | 1;
      const size = Math.max(3, length);
      const kernel = keep(cv.Mat.zeros(size, size, cv.CV_32F));
      const a = random.between(0, Math.PI);
      const h = (size - 1) / 2;
      cv.line(
        kernel,
        new cv.Point(Math.round(h - Math.cos(a) * h), Math.round(h - Math.sin(a) * h)),
        new cv.Point(Math.round(h + Math.cos(a) * h), Math.round(h + Math.sin(a) * h)),
        new cv.Scalar(1),
        1,
      );
      const sum = kernel.data32F.reduce((t, v) => t + v, 0) || 1;
      const normalised = keep(new cv.Mat());
      kernel.convertTo(normalised, cv.CV_32F, 1 / sum);
      cv.filter2D(src, out, -1, normalised);
    }
    return Uint8Array.from(out.data);
  });
}

/** Sensor noise of standard deviation `sd`, roughly Gaussian (drawn from a table of sums of three uniforms). */
function noise(rgb: Uint8Array, sd: number, random: Random): void {
  const table = Float32Array.from({ length: 4096 }, () => sd * 2 * (random() + random() + random() - 1.5));
  for (let i = 0; i < rgb.length; i++) rgb[i] = Math.max(0, Math.min(255, rgb[i]! + table[(random() * 4096) | 0]!));
}
