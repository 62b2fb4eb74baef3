// Synthetic camera photos of real reference scans, for recognition tests and its benchmark: the card
// tilted in perspective, turned, scaled, in a sleeve, on a cluttered or dark background, under a
// lighting shift and a glare patch, blurred and JPEG-compressed. Deterministic for a seed.
import sharp from 'sharp';
import { openCv, withMats } from '../../ingest/recognition/opencv.js';

export type Distortion = {
  /** Card height in the photo, pixels. */
  cardHeight: number;
  /** Quarter turns clockwise (0–3) plus `jitter` degrees. */
  quarterTurns: 0 | 1 | 2 | 3;
  jitter: number;
  /** Perspective tilt, degrees (0–20). */
  tilt: number;
  background: 'cluttered' | 'dark' | 'light';
  sleeve: boolean;
  /** Multiplies brightness; `cast` shifts red against blue. */
  brightness: number;
  cast: number;
  /** Glare patch area as a fraction of the card (0–0.1). */
  glare: number;
  blur: number;
  jpegQuality: number;
  /** Photo size; by default the card's height times 1.3–2. */
  canvas?: { width: number; height: number };
  /** Shown on a screen and photographed (sub-pixel grid and moiré). */
  screen?: boolean;
};

export function randomGenerator(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

export function randomDistortion(random: () => number, overrides: Partial<Distortion> = {}): Distortion {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  return {
    cardHeight: Math.round(220 + random() * 380),
    quarterTurns: pick([0, 1, 2, 3] as const),
    jitter: (random() * 2 - 1) * 8,
    tilt: random() * 20,
    background: pick(['cluttered', 'cluttered', 'dark', 'light'] as const),
    sleeve: random() < 0.3,
    brightness: 0.75 + random() * 0.5,
    cast: (random() * 2 - 1) * 0.12,
    glare: random() < 0.4 ? random() * 0.1 : 0,
    blur: random() < 0.5 ? random() * 1.5 : 0,
    jpegQuality: Math.round(35 + random() * 55),
    ...overrides,
  };
}

async function background(kind: Distortion['background'], width: number, height: number, random: () => number): Promise<Uint8Array> {
  const shapes: string[] = [];
  const colour = () => `rgb(${Math.floor(random() * 256)},${Math.floor(random() * 256)},${Math.floor(random() * 256)})`;
  const base = kind === 'dark' ? 'rgb(20,22,28)' : kind === 'light' ? 'rgb(225,222,215)' : colour();
  if (kind === 'cluttered')
    for (let i = 0; i < 40; i++) {
      const x = random() * width;
      const y = random() * height;
      const s = (0.05 + random() * 0.3) * Math.min(width, height);
      const r = random();
      if (r < 0.4)
        shapes.push(
          `<rect x="${x}" y="${y}" width="${s}" height="${s * (0.3 + random())}" fill="${colour()}" transform="rotate(${random() * 90} ${x} ${y})"/>`,
        );
      else if (r < 0.7) shapes.push(`<circle cx="${x}" cy="${y}" r="${s / 2}" fill="${colour()}"/>`);
      else
        shapes.push(
          `<line x1="${x}" y1="${y}" x2="${random() * width}" y2="${random() * height}" stroke="${colour()}" stroke-width="${1 + random() * 6}"/>`,
        );
    }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${base}"/>${shapes.join('')}</svg>`;
  const data = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  return new Uint8Array(data.buffer, data.byteOffset, data.length);
}

/** The card as RGBA at `height`, in a translucent sleeve if asked, on the screen grid if asked. */
async function cardLayer(
  reference: Buffer | string,
  height: number,
  d: Distortion,
): Promise<{ data: Uint8Array; width: number; height: number }> {
  const width = Math.round((height * 63) / 88);
  let card = await sharp(reference).resize(width, height, { fit: 'fill' }).ensureAlpha().raw().toBuffer();
  let w = width;
  let h = height;
  if (d.screen) {
    // Each pixel shown as red, green and blue stripes with a dark gap, the way an LCD draws it.
    const sw = w * 3;
    const sh = h * 3;
    const big = Buffer.alloc(sw * sh * 4);
    for (let y = 0; y < sh; y++)
      for (let x = 0; x < sw; x++) {
        const src = (Math.floor(y / 3) * w + Math.floor(x / 3)) * 4;
        const o = (y * sw + x) * 4;
        const gap = y % 3 === 2 ? 0.35 : 1;
        const c = x % 3;
        for (let k = 0; k < 3; k++) big[o + k] = k === c ? Math.min(255, card[src + k]! * 2.4 * gap) : 0;
        big[o + 3] = card[src + 3]!;
      }
    // Sampled without area averaging at a pitch that is not a multiple of the grid's, as a camera
    // sensor samples it (the beat between the two is the moiré), then brought to the card's size.
    const sampled = await sharp(big, { raw: { width: sw, height: sh, channels: 4 } })
      .resize(Math.round(w * 1.17), Math.round(h * 1.17), { kernel: 'nearest' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    card = await sharp(sampled.data, { raw: { width: sampled.info.width, height: sampled.info.height, channels: 4 } })
      .resize(w, h)
      .raw()
      .toBuffer();
  }
  if (d.sleeve) {
    const m = Math.round(height * 0.035);
    const sw = w + 2 * m;
    const sh = h + 2 * m;
    const sleeve = Buffer.alloc(sw * sh * 4);
    for (let y = 0; y < sh; y++)
      for (let x = 0; x < sw; x++) {
        const o = (y * sw + x) * 4;
        const edge = x < 2 || y < 2 || x >= sw - 2 || y >= sh - 2;
        sleeve[o] = 235;
        sleeve[o + 1] = 238;
        sleeve[o + 2] = 245;
        sleeve[o + 3] = edge ? 200 : 70;
      }
    card = await sharp(sleeve, { raw: { width: sw, height: sh, channels: 4 } })
      .composite([{ input: card, raw: { width: w, height: h, channels: 4 }, left: m, top: m }])
      .raw()
      .toBuffer();
    w = sw;
    h = sh;
  }
  return { data: new Uint8Array(card.buffer, card.byteOffset, card.length), width: w, height: h };
}

/** A JPEG photo of the reference card under distortion `d`. */
export async function cardPhoto(reference: Buffer | string, d: Distortion, seed: number): Promise<Buffer> {
  const cv = await openCv();
  const random = randomGenerator(seed);
  const layer = await cardLayer(reference, d.cardHeight, d);
  const turned = d.quarterTurns % 2 === 1;
  const canvas = d.canvas ?? {
    width: Math.round((turned ? layer.height : layer.width) * (1.3 + random() * 0.7)),
    height: Math.round((turned ? layer.width : layer.height) * (1.3 + random() * 0.7)),
  };
  const { width: W, height: H } = canvas;
  const photo = await background(d.background, W, H, random);
  // Where the card's corners land: turned about its centre, one edge foreshortened by the tilt.
  const angle = ((d.quarterTurns * 90 + d.jitter) * Math.PI) / 180;
  const shrink = 1 - 0.55 * Math.sin((d.tilt * Math.PI) / 180);
  const hw = layer.width / 2;
  const hh = layer.height / 2;
  const tiltTop = random() < 0.5;
  const local = [
    [-hw * (tiltTop ? shrink : 1), -hh],
    [hw * (tiltTop ? shrink : 1), -hh],
    [hw * (tiltTop ? 1 : shrink), hh],
    [-hw * (tiltTop ? 1 : shrink), hh],
  ];
  const reach = Math.abs(Math.cos(angle)) * hw + Math.abs(Math.sin(angle)) * hh;
  const reachY = Math.abs(Math.sin(angle)) * hw + Math.abs(Math.cos(angle)) * hh;
  const cx = reach + random() * Math.max(0, W - 2 * reach);
  const cy = reachY + random() * Math.max(0, H - 2 * reachY);
  const corners = local.map(([x, y]) => [
    cx + x! * Math.cos(angle) - y! * Math.sin(angle),
    cy + x! * Math.sin(angle) + y! * Math.cos(angle),
  ]);
  const warped = withMats((keep) => {
    const src = keep(cv.matFromArray(layer.height, layer.width, cv.CV_8UC4, layer.data));
    const from = keep(cv.matFromArray(4, 1, cv.CV_32FC2, [0, 0, layer.width, 0, layer.width, layer.height, 0, layer.height]));
    const to = keep(cv.matFromArray(4, 1, cv.CV_32FC2, corners.flat()));
    const m = keep(cv.getPerspectiveTransform(from, to));
    const out = keep(new cv.Mat());
    cv.warpPerspective(src, out, m, new cv.Size(W, H), cv.INTER_LINEAR, cv.BORDER_CONSTANT, new cv.Scalar(0, 0, 0, 0));
    return Uint8Array.from(out.data);
  });
  // Glare: a bright elliptical patch somewhere on the card.
  const glareArea = d.glare * layer.width * layer.height;
  const gr = Math.sqrt(glareArea / Math.PI);
  const gx = cx + (random() - 0.5) * hw;
  const gy = cy + (random() - 0.5) * hh;
  for (let i = 0, p = 0; i < W * H; i++, p += 3) {
    const a = warped[i * 4 + 3]! / 255;
    for (let k = 0; k < 3; k++) {
      let v = photo[p + k]! * (1 - a) + warped[i * 4 + k]! * a;
      v *= d.brightness * (k === 0 ? 1 + d.cast : k === 2 ? 1 - d.cast : 1);
      photo[p + k] = Math.max(0, Math.min(255, v));
    }
    if (gr > 0 && a > 0) {
      const x = i % W;
      const y = (i - x) / W;
      const r = Math.hypot(x - gx, (y - gy) * 1.4) / gr;
      if (r < 1.3) {
        const g = r < 1 ? 1 : (1.3 - r) / 0.3;
        for (let k = 0; k < 3; k++) photo[p + k] = Math.min(255, photo[p + k]! + g * 255 * a);
      }
    }
  }
  let out = sharp(photo, { raw: { width: W, height: H, channels: 3 } });
  if (d.blur >= 0.3) out = out.blur(d.blur);
  return out.jpeg({ quality: d.jpegQuality }).toBuffer();
}
