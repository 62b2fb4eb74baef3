// A photo as recognition reads it: decoded once by sharp (EXIF orientation applied, bounded in
// pixels), searched for the card's quadrilateral with OpenCV, and cut out in perspective.
import sharp, { type Metadata } from 'sharp';
import { CARD_HEIGHT, CARD_WIDTH } from './features.js';
import type { Cv, Mat } from './opencv.js';
import { withMats } from './opencv.js';

/** A decompression bomb's bound: more pixels than any phone camera's photo (60 MP is refused). */
export const MAX_PHOTO_PIXELS = 50_000_000;
/** Smallest photo side we look at, in pixels. */
export const MIN_PHOTO_SIDE = 64;
/** The longest side of the raster the card is cut from: more adds decode time, not accuracy. */
const WORKING_SIDE = 1280;
/** The longest side of the raster searched for edges. */
const SEARCH_SIDE = 480;

export type Point = { x: number; y: number };
/** Four corners, clockwise from the one nearest the photo's top-left. */
export type Quad = [Point, Point, Point, Point];

export type Photo = {
  rgb: Uint8Array;
  width: number;
  height: number;
  /** Photo pixels per working pixel (1 unless the photo was shrunk on decode). */
  scale: number;
  original: { width: number; height: number; format: string };
};

export type PhotoRefusal = 'not_a_picture' | 'unsupported_format' | 'too_many_pixels' | 'too_small';

const READABLE = new Set(['jpeg', 'png', 'webp', 'heif']);

/**
 * Decodes an upload, or says why it cannot be read. HEIF is read when it is AVIF-coded (HEVC is
 * not in sharp's libvips). Upright by its EXIF orientation; with `quarterTurn`, turned 90°
 * clockwise from its stored pixels instead (a scan session's upload, as the spec says).
 */
export async function decodePhoto(bytes: Buffer, opts: { quarterTurn?: boolean } = {}): Promise<Photo | { refused: PhotoRefusal }> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return { refused: 'not_a_picture' };
  }
  if (!meta.format || !READABLE.has(meta.format)) return { refused: 'unsupported_format' };
  const width = (opts.quarterTurn ? meta.height : meta.autoOrient?.width) ?? meta.width ?? 0;
  const height = (opts.quarterTurn ? meta.width : meta.autoOrient?.height) ?? meta.height ?? 0;
  if (width * height > MAX_PHOTO_PIXELS) return { refused: 'too_many_pixels' };
  if (Math.min(width, height) < MIN_PHOTO_SIDE) return { refused: 'too_small' };
  try {
    const source = sharp(bytes, { limitInputPixels: MAX_PHOTO_PIXELS, failOn: 'truncated' });
    const { data, info } = await (opts.quarterTurn ? source.rotate(90) : source.autoOrient())
      .resize({ width: WORKING_SIDE, height: WORKING_SIDE, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#808080' })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      rgb: new Uint8Array(data.buffer, data.byteOffset, data.length),
      width: info.width,
      height: info.height,
      scale: width / info.width,
      original: { width, height, format: meta.format },
    };
  } catch {
    // An unsupported HEIF codec (HEVC) fails here, as does a truncated or corrupt file.
    if (meta.format === 'heif') return { refused: 'unsupported_format' };
    return { refused: 'not_a_picture' };
  }
}

/** A quadrilateral that may be the card: where, how sure, and how it was found. */
/** `support`: the share of its outline on an edge; `score` ranks candidates (support², aspect fit, area). */
export type QuadCandidate = {
  quad: Quad;
  score: number;
  support: number;
  found: 'contour' | 'rectangle' | 'lines' | 'completed' | 'frame';
};

const CARD_ASPECT = CARD_WIDTH / CARD_HEIGHT;
/** A quadrilateral this share of the photo or more is large enough to be the card (see shapeOf). */
const FULL_SHARE = 0.25;
/** How far off the photo's middle a candidate's centre may lie before its score falls to 1/e, as a share of the half-diagonal. */
const CENTRE_SPREAD = 0.6;
/**
 * The focal length the finder undoes perspective with, in the photo's longer sides: a phone's main
 * camera is ~0.75 (26 mm equivalent), its 2× zoom or a cropped photo ~1.5; a card's proportion
 * changes little with it at the tilts a photo has (on the tuning photos, whose camera is 1.1,
 * 1.0 leaves the card 63:88 within 3.5 % and 0.8 within 6.5 %; uncorrected it was up to 9.5 % off).
 */
const FOCAL = 1;
/**
 * A tilt up to FREE_TILT costs a quadrilateral nothing; beyond it, its shape score falls to 1/e in
 * TILT_SPREAD more (radians). A photo of a card is rarely tilted past 20–25°, and any trapezoid is
 * a rectangle at some steep tilt: on the first generator's cluttered table, clutter's outranked
 * the card more often without the bound.
 */
const FREE_TILT = (20 * Math.PI) / 180;
const TILT_SPREAD = (10 * Math.PI) / 180;
/** Quadrilaterals from lines kept per way of finding them, before near-duplicates are dropped. */
const SCORED_PER_WAY = 16;

function orderClockwise(points: Point[]): Quad {
  const cx = points.reduce((s, p) => s + p.x, 0) / points.length;
  const cy = points.reduce((s, p) => s + p.y, 0) / points.length;
  const sorted = [...points].sort((a, b) => Math.atan2(a.y - cy, a.x - cx) - Math.atan2(b.y - cy, b.x - cx));
  let first = 0;
  for (let i = 1; i < 4; i++) if (sorted[i]!.x + sorted[i]!.y < sorted[first]!.x + sorted[first]!.y) first = i;
  return [0, 1, 2, 3].map((i) => sorted[(first + i) % 4]!) as Quad;
}

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/** Whether `p` lies inside the convex quadrilateral `q` (corners in order around it, either way). */
export function insideQuad(p: Point, q: Quad): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const a = q[i]!;
    const b = q[(i + 1) % 4]!;
    const s = Math.sign((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x));
    if (s !== 0 && sign !== 0 && s !== sign) return false;
    if (s !== 0) sign = s;
  }
  return true;
}

/** insideQuad of `p` and the quadrilateral whose corners are list[o..o + 7] (x, y each). */
function insideCorners(p: Point, list: ArrayLike<number>, o: number): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const ax = list[o + 2 * i]!;
    const ay = list[o + 2 * i + 1]!;
    const bx = list[o + ((2 * i + 2) % 8)]!;
    const by = list[o + ((2 * i + 3) % 8)]!;
    const s = Math.sign((bx - ax) * (p.y - ay) - (by - ay) * (p.x - ax));
    if (s !== 0 && sign !== 0 && s !== sign) return false;
    if (s !== 0) sign = s;
  }
  return true;
}

/**
 * Indices into `values`, taken largest value first (the smaller index first between equals): a
 * binary heap, so taking the first k of n costs n + k log n rather than sorting all n.
 */
class IndexHeap {
  #heap: Int32Array;
  #size: number;

  constructor(
    private readonly values: Float64Array,
    indices: number[],
  ) {
    this.#heap = new Int32Array(Math.max(16, indices.length));
    this.#heap.set(indices);
    this.#size = indices.length;
    for (let k = (this.#size >> 1) - 1; k >= 0; k--) this.#down(k);
  }

  /** The next index, or -1 when none is left. */
  peek(): number {
    return this.#size ? this.#heap[0]! : -1;
  }

  pop(): number {
    if (this.#size === 0) return -1;
    const top = this.#heap[0]!;
    this.#heap[0] = this.#heap[--this.#size]!;
    this.#down(0);
    return top;
  }

  push(index: number): void {
    if (this.#size === this.#heap.length) {
      const grown = new Int32Array(2 * this.#size);
      grown.set(this.#heap);
      this.#heap = grown;
    }
    const heap = this.#heap;
    let k = this.#size++;
    heap[k] = index;
    while (k > 0) {
      const parent = (k - 1) >> 1;
      if (!this.#before(heap[k]!, heap[parent]!)) return;
      heap[k] = heap[parent]!;
      heap[parent] = index;
      k = parent;
    }
  }

  #before(i: number, j: number): boolean {
    const a = this.values[i]!;
    const b = this.values[j]!;
    return a > b || (a === b && i < j);
  }

  #down(k: number): void {
    const heap = this.#heap;
    for (;;) {
      const left = 2 * k + 1;
      if (left >= this.#size) return;
      const right = left + 1;
      const child = right < this.#size && this.#before(heap[right]!, heap[left]!) ? right : left;
      if (!this.#before(heap[child]!, heap[k]!)) return;
      const swap = heap[k]!;
      heap[k] = heap[child]!;
      heap[child] = swap;
      k = child;
    }
  }
}

/** Short side over long side of a quadrilateral, from its opposite sides' mean lengths. */
export function quadAspect(q: Quad): { short: number; long: number; ratio: number } {
  const a = (distance(q[0], q[1]) + distance(q[2], q[3])) / 2;
  const b = (distance(q[1], q[2]) + distance(q[3], q[0])) / 2;
  const short = Math.min(a, b);
  const long = Math.max(a, b);
  return { short, long, ratio: long > 0 ? short / long : 0 };
}

/** Homogeneous coordinates of a point or a line of the photo, the principal point at the origin. */
type Homogeneous = [number, number, number];
const cross3 = (a: Homogeneous, b: Homogeneous): Homogeneous => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];

/**
 * Width over height of the rectangle photographed as corners m1 (its top-left), m2 (top-right),
 * m3 (bottom-left) and m4 (bottom-right), each given as x, y with 1 as its third homogeneous
 * coordinate, seen by a camera of focal length `focal` (Zhang & He, "Whiteboard scanning and image
 * enhancement", 2007). The focal length is assumed rather than taken from the quadrilateral's
 * vanishing points as they do: that estimate was off by half on a card tilted 16° (its principal
 * point is not the photo's middle once a photo is cropped). NaN when the corners are degenerate.
 * Written out in scalars (the line stage asks it of tens of thousands of quadrilaterals a photo),
 * each product and sum the one cross3 and dot3 would make, in their order.
 */
function rectifiedRatio(
  m1x: number,
  m1y: number,
  m2x: number,
  m2y: number,
  m3x: number,
  m3y: number,
  m4x: number,
  m4y: number,
  focal: number,
): number {
  // dot3(cross3(m2, m4), m3) and dot3(cross3(m3, m4), m2).
  const d2 = (m2y - m4y) * m3x + (m4x - m2x) * m3y + (m2x * m4y - m2y * m4x);
  const d3 = (m3y - m4y) * m2x + (m4x - m3x) * m2y + (m3x * m4y - m3y * m4x);
  if (d2 === 0 || d3 === 0) return NaN;
  // cross3(m1, m4), dotted with m3 and with m2.
  const c0 = m1y - m4y;
  const c1 = m4x - m1x;
  const c2 = m1x * m4y - m1y * m4x;
  const k2 = (c0 * m3x + c1 * m3y + c2) / d2;
  const k3 = (c0 * m2x + c1 * m2y + c2) / d3;
  const f = focal;
  const w = (k2 * m2x - m1x) ** 2 + (k2 * m2y - m1y) ** 2 + f * f * (k2 - 1) ** 2;
  const h = (k3 * m3x - m1x) ** 2 + (k3 * m3y - m1y) ** 2 + f * f * (k3 - 1) ** 2;
  return w > 0 && h > 0 ? Math.sqrt(w / h) : NaN;
}

/**
 * Short side over long side of the rectangle a quadrilateral (corners in order around it) is a
 * picture of, the perspective undone (rectifiedRatio) for a camera of focal length `focal` whose
 * principal point is `centre`, and how far that rectangle is tilted from facing the camera
 * (radians): a card tilted 20° towards the camera looks ~10 % shorter or longer than 63:88, which
 * the plain ratio (quadAspect) counted against the card; but any trapezoid is some rectangle
 * steeply tilted, so the tilt it takes is weighed too (see CardFinder.shapeOf).
 */
export function rectifiedAspect(q: Quad, centre: Point, focal: number): { ratio: number; tilt: number } {
  const out = { ratio: 0, tilt: 0 };
  rectifiedAspectOf(q[0].x, q[0].y, q[1].x, q[1].y, q[2].x, q[2].y, q[3].x, q[3].y, centre, focal, out);
  return out;
}

/** rectifiedAspect of corners given as numbers, into `out` (no allocation: see rectifiedRatio). */
function rectifiedAspectOf(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
  centre: Point,
  focal: number,
  out: { ratio: number; tilt: number },
): void {
  const m0x = ax - centre.x;
  const m0y = ay - centre.y;
  const m1x = bx - centre.x;
  const m1y = by - centre.y;
  const m2x = cx - centre.x;
  const m2y = cy - centre.y;
  const m3x = dx - centre.x;
  const m3y = dy - centre.y;
  const ratio = rectifiedRatio(m0x, m0y, m1x, m1y, m3x, m3y, m2x, m2y, focal);
  // The plane's normal is Kᵀ times its vanishing line (through both pairs of sides' meeting
  // points): side i is cross3(m_i, m_i+1), the meeting points cross3(side 0, side 2) and
  // cross3(side 1, side 3), the vanishing line their cross3.
  const s00 = m0y - m1y;
  const s01 = m1x - m0x;
  const s02 = m0x * m1y - m0y * m1x;
  const s10 = m1y - m2y;
  const s11 = m2x - m1x;
  const s12 = m1x * m2y - m1y * m2x;
  const s20 = m2y - m3y;
  const s21 = m3x - m2x;
  const s22 = m2x * m3y - m2y * m3x;
  const s30 = m3y - m0y;
  const s31 = m0x - m3x;
  const s32 = m3x * m0y - m3y * m0x;
  const u0 = s01 * s22 - s02 * s21;
  const u1 = s02 * s20 - s00 * s22;
  const u2 = s00 * s21 - s01 * s20;
  const v0 = s11 * s32 - s12 * s31;
  const v1 = s12 * s30 - s10 * s32;
  const v2 = s10 * s31 - s11 * s30;
  const normal0 = focal * (u1 * v2 - u2 * v1);
  const normal1 = focal * (u2 * v0 - u0 * v2);
  const normal2 = u0 * v1 - u1 * v0;
  const length = Math.hypot(normal0, normal1, normal2);
  const tilt = length > 0 ? Math.acos(Math.min(1, Math.abs(normal2) / length)) : 0;
  if (Number.isFinite(ratio)) {
    out.ratio = Math.min(ratio, 1 / ratio);
    out.tilt = tilt;
  } else {
    out.ratio = quadAspect([
      { x: ax, y: ay },
      { x: bx, y: by },
      { x: cx, y: cy },
      { x: dx, y: dy },
    ]).ratio;
    out.tilt = 0;
  }
}

/** A quadrilateral's area (the shoelace formula), in square pixels. */
export function quadArea(q: Quad): number {
  let s = 0;
  for (let i = 0; i < 4; i++) s += q[i]!.x * q[(i + 1) % 4]!.y - q[(i + 1) % 4]!.x * q[i]!.y;
  return Math.abs(s) / 2;
}

/** How a candidate was found, for the places each way gets (see CardFinder.distinct). */
type Way = 'outline' | 'lines' | 'completed';
const wayOf = (c: QuadCandidate): Way => (c.found === 'lines' || c.found === 'completed' ? c.found : 'outline');

/**
 * Finds the quadrilaterals that may be the card, in working-raster pixels, in two stages over one
 * edge map: outlines (contours; cheap, and enough on a plain table), then straight lines (Hough
 * pairs; for clutter that breaks the card's outline but not its sides), so a caller that is sure
 * after the outlines skips the costlier lines. Edges: Canny per colour channel on a blurred copy
 * at SEARCH_SIDE, closed by a dilation. Each stage's candidates are ranked by score, near
 * duplicates of any candidate already given dropped. Holds OpenCV memory until delete().
 */
export class CardFinder {
  private readonly factor: number;
  private readonly edges: Mat;
  private readonly closed: Mat;
  /** The edge maps' size. */
  private readonly width: number;
  private readonly height: number;
  /** Candidates given so far (shared with the finder this one searches after: none is tried twice). */
  private readonly given: QuadCandidate[];
  /** The photo shrunk to the edge maps' size, unblurred: a finder searching after this one starts from it. */
  private shrunk: Mat | undefined;

  constructor(
    private readonly cv: Cv,
    private readonly photo: Photo,
    rgb: Mat,
    opts: { stretch?: boolean; after?: CardFinder } = {},
  ) {
    this.given = opts.after?.given ?? [];
    this.factor = Math.min(1, SEARCH_SIDE / Math.max(photo.width, photo.height));
    this.width = Math.round(photo.width * this.factor);
    this.height = Math.round(photo.height * this.factor);
    const edges = (this.edges = new cv.Mat());
    const closed = (this.closed = new cv.Mat());
    try {
      withMats((keep) => {
        // The shrink is a third of a finder's own work: one searching after another (the stretched
        // search) copies the other's instead of shrinking the photo again.
        let source = opts.after?.shrunk;
        if (!source) {
          source = this.shrunk = new cv.Mat();
          cv.resize(rgb, source, new cv.Size(this.width, this.height), 0, 0, cv.INTER_AREA);
        }
        let unblurred = source;
        if (opts.stretch) {
          unblurred = keep(source.clone());
          stretchContrast(unblurred.data);
        }
        const small = keep(new cv.Mat());
        cv.GaussianBlur(unblurred, small, new cv.Size(5, 5), 0);
        // Edges in any colour channel: a silver border on a grey table differs in hue more than in brightness.
        const channels = keep(new cv.MatVector());
        cv.split(small, channels);
        const channelEdges = keep(new cv.Mat());
        for (let c = 0; c < 3; c++) {
          const channel = keep(channels.get(c));
          cv.Canny(channel, c === 0 ? edges : channelEdges, 20, 60);
          if (c > 0) cv.bitwise_or(edges, channelEdges, edges);
        }
        cv.dilate(edges, closed, keep(cv.Mat.ones(3, 3, cv.CV_8U)));
      });
    } catch (err) {
      this.delete();
      throw err;
    }
  }

  delete(): void {
    this.edges.delete();
    this.closed.delete();
    this.shrunk?.delete();
    this.shrunk = undefined;
  }

  private get imageArea(): number {
    return this.width * this.height;
  }

  /** A candidate's shape score: closeness to 63:88, its share of the photo and how central it is (an upper bound of its score). */
  private shapeScore(q: Quad): number {
    return this.shapeOf(
      this.aspectOf(q),
      quadArea(q),
      (q[0].x + q[1].x + q[2].x + q[3].x) / 4,
      (q[0].y + q[1].y + q[2].y + q[3].y) / 4,
      this.aroundCentre(q),
    );
  }

  /** The card's proportion as the quadrilateral shows it, the perspective undone (at FOCAL), and the tilt that takes. */
  private aspectOf(q: Quad): { ratio: number; tilt: number } {
    return rectifiedAspect(q, { x: this.width / 2, y: this.height / 2 }, FOCAL * Math.max(this.width, this.height));
  }

  /** Whether the photo's centre lies inside the quadrilateral. */
  private aroundCentre(q: Quad): boolean {
    return insideQuad({ x: this.width / 2, y: this.height / 2 }, q);
  }

  /**
   * Any quadrilateral of at least FULL_SHARE of the photo counts as large enough: rewarding size
   * beyond that preferred whatever spans the card and its neighbours (a binder page, a pile). The card
   * photographed is framed near the middle: a quadrilateral around the photo's centre loses
   * nothing, one beside it (a neighbour's centre lies a card's width away) falls off with distance.
   */
  private shapeOf({ ratio, tilt }: { ratio: number; tilt: number }, area: number, cx: number, cy: number, aroundCentre: boolean): number {
    const steep = Math.max(0, tilt - FREE_TILT) / TILT_SPREAD;
    return (
      Math.exp(-8 * Math.abs(Math.log(ratio / CARD_ASPECT))) *
      Math.exp(-(steep * steep)) *
      this.sizeTerm(area) *
      this.centreTerm(cx, cy, aroundCentre)
    );
  }

  /** shapeOf's factor for the quadrilateral's share of the photo. */
  private sizeTerm(area: number): number {
    return Math.min(1, area / (FULL_SHARE * this.imageArea));
  }

  /** shapeOf's factor for how far the quadrilateral lies from the photo's centre. */
  private centreTerm(cx: number, cy: number, aroundCentre: boolean): number {
    const off = aroundCentre ? 0 : Math.hypot(cx - this.width / 2, cy - this.height / 2) / Math.hypot(this.width / 2, this.height / 2);
    return Math.exp(-((off / CENTRE_SPREAD) ** 2));
  }

  /** Score = how much of its outline lies on an edge (squared) × shape; the quad in working pixels. */
  private scored(q: Quad, how: QuadCandidate['found'], shape?: number): QuadCandidate;
  private scored(q: Quad, how: QuadCandidate['found'], shape: number, floor: number): QuadCandidate | null;
  /** With a `floor`, null unless its support exceeds it. */
  private scored(q: Quad, how: QuadCandidate['found'], shape = this.shapeScore(q), floor = 0): QuadCandidate | null {
    const support = edgeSupport(q, this.closed.data, this.closed.cols, this.closed.rows, floor);
    if (support < 0) return null;
    return {
      quad: q.map((p) => ({ x: p.x / this.factor, y: p.y / this.factor })) as Quad,
      score: support * support * shape,
      support,
      found: how,
    };
  }

  /** Up to `places` contours' quadrilaterals (their simplified hull, or minimum-area rectangle). */
  outlines(places = 3): QuadCandidate[] {
    return this.distinct(this.outlineCandidates(), { outline: places, lines: 0, completed: 0 });
  }

  /** Up to `places` line quadrilaterals and `completedPlaces` completed from three sides. */
  lines(places = 3, completedPlaces = 2): QuadCandidate[] {
    return this.distinct(this.lineCandidates(completedPlaces > 0), { outline: 0, lines: places, completed: completedPlaces });
  }

  /** The whole photo: a photo already cropped to the card, or one whose edges were not found. */
  frame(): QuadCandidate {
    const { width: w, height: h } = this.photo;
    const quad: Quad = [
      { x: 0, y: 0 },
      { x: w, y: 0 },
      { x: w, y: h },
      { x: 0, y: h },
    ];
    return { quad, score: 0, support: 0, found: 'frame' };
  }

  private outlineCandidates(): QuadCandidate[] {
    const { cv } = this;
    return withMats((keep) => {
      const out: QuadCandidate[] = [];
      // Both the raw edges and the edges closed by a dilation: closing mends a broken border but
      // also welds the card to whatever touches it.
      for (const map of [this.edges, this.closed]) {
        const contours = keep(new cv.MatVector());
        const hierarchy = keep(new cv.Mat());
        cv.findContours(map, contours, hierarchy, cv.RETR_LIST, cv.CHAIN_APPROX_SIMPLE);
        for (let i = 0; i < (contours.size() as unknown as number); i++) {
          const contour = keep(contours.get(i));
          if (cv.contourArea(contour) < 0.04 * this.imageArea) continue;
          const hull = keep(new cv.Mat());
          cv.convexHull(contour, hull, false, true);
          const approx = keep(new cv.Mat());
          cv.approxPolyDP(hull, approx, 0.02 * cv.arcLength(hull, true), true);
          let points: Point[];
          let how: QuadCandidate['found'];
          if (approx.rows === 4) {
            points = [0, 1, 2, 3].map((k) => ({ x: approx.data32S[2 * k]!, y: approx.data32S[2 * k + 1]! }));
            how = 'contour';
          } else {
            const box = cv.minAreaRect(hull);
            points = rectangleCorners(box.center, box.size, box.angle);
            how = 'rectangle';
          }
          out.push(this.scored(orderClockwise(points), how));
        }
      }
      return out;
    });
  }

  private lineCandidates(withCompleted: boolean): QuadCandidate[] {
    const { cv } = this;
    const minSide = Math.min(this.width, this.height);
    const segments = withMats((keep) => {
      const lines = keep(new cv.Mat());
      cv.HoughLinesP(this.edges, lines, 1, Math.PI / 180, 30, 0.15 * minSide, 6);
      return Int32Array.from(lines.data32S);
    });
    const fromLines = quadsFromLines(segments, minSide, {
      cx: this.width / 2,
      cy: this.height / 2,
      focal: FOCAL * Math.max(this.width, this.height),
    });
    // Lines pair into thousands of quadrilaterals on a busy photo: only the best few by score are
    // wanted, so their outlines are checked best shape first until no shape could beat them.
    // Shapes are measured on the corners as found; only a quadrilateral scored is put in order.
    const best = (quads: CornerList, how: QuadCandidate['found']) => {
      const n = quads.length / 8;
      const centre = { x: this.width / 2, y: this.height / 2 };
      const focal = FOCAL * Math.max(this.width, this.height);
      // The size and centre factors of each shape, and their product: the aspect and tilt factors
      // are at most 1, so it bounds the shape, and a quadrilateral's perspective (the costly part)
      // is measured only once its bound could be the next best shape.
      const sizes = new Float64Array(n);
      const centres = new Float64Array(n);
      const bounds = new Float64Array(n);
      const shapes = new Float64Array(n);
      const large: number[] = [];
      for (let i = 0; i < n; i++) {
        const o = 8 * i;
        const [x0, y0, x1, y1, x2, y2, x3, y3] = [
          quads[o]!,
          quads[o + 1]!,
          quads[o + 2]!,
          quads[o + 3]!,
          quads[o + 4]!,
          quads[o + 5]!,
          quads[o + 6]!,
          quads[o + 7]!,
        ];
        // quadArea's sum, in its order.
        let twice = 0;
        twice += x0 * y1 - x1 * y0;
        twice += x1 * y2 - x2 * y1;
        twice += x2 * y3 - x3 * y2;
        twice += x3 * y0 - x0 * y3;
        const area = Math.abs(twice) / 2;
        if (area < 0.04 * this.imageArea) continue;
        sizes[i] = this.sizeTerm(area);
        centres[i] = this.centreTerm((x0 + x1 + x2 + x3) / 4, (y0 + y1 + y2 + y3) / 4, insideCorners(centre, quads, o));
        bounds[i] = sizes[i]! * centres[i]!;
        large.push(i);
      }
      const unmeasured = new IndexHeap(bounds, large);
      const measured = new IndexHeap(shapes, []);
      const aspect = { ratio: 0, tilt: 0 };
      // Best shape first (ties by position), as sorting them all by shape would give.
      const next = (): number => {
        for (let i = unmeasured.peek(); i >= 0 && (measured.peek() < 0 || bounds[i]! >= shapes[measured.peek()]!); i = unmeasured.peek()) {
          unmeasured.pop();
          const o = 8 * i;
          rectifiedAspectOf(
            quads[o]!,
            quads[o + 1]!,
            quads[o + 2]!,
            quads[o + 3]!,
            quads[o + 4]!,
            quads[o + 5]!,
            quads[o + 6]!,
            quads[o + 7]!,
            centre,
            focal,
            aspect,
          );
          const steep = Math.max(0, aspect.tilt - FREE_TILT) / TILT_SPREAD;
          // shapeOf's product, in its order.
          shapes[i] = Math.exp(-8 * Math.abs(Math.log(aspect.ratio / CARD_ASPECT))) * Math.exp(-(steep * steep)) * sizes[i]! * centres[i]!;
          measured.push(i);
        }
        return measured.pop();
      };
      const kept: QuadCandidate[] = [];
      for (let i = next(); i >= 0; i = next()) {
        const shape = shapes[i]!;
        const last = kept.length >= SCORED_PER_WAY ? kept[SCORED_PER_WAY - 1]!.score : 0;
        if (last > 0 && shape <= last) break;
        // Only a support whose square times the shape beats the last kept score can be kept.
        const candidate = this.scored(orderClockwise(cornersOf(quads, i)), how, shape, Math.sqrt(last / shape));
        if (!candidate) continue;
        kept.push(candidate);
        kept.sort((a, b) => b.score - a.score);
        kept.length = Math.min(kept.length, SCORED_PER_WAY);
      }
      return kept;
    };
    return [...best(fromLines.quads, 'lines'), ...(withCompleted ? best(fromLines.completed, 'completed') : [])];
  }

  /** The best candidates, at most `places` of each way, none within 3 % of the photo's diagonal of one already given. */
  private distinct(found: QuadCandidate[], places: Record<Way, number>): QuadCandidate[] {
    found.sort((a, b) => b.score - a.score);
    const near = 0.03 * Math.hypot(this.photo.width, this.photo.height);
    const taken: Record<Way, number> = { outline: 0, lines: 0, completed: 0 };
    const out: QuadCandidate[] = [];
    for (const c of found) {
      const way = wayOf(c);
      if (taken[way] >= places[way]) continue;
      if (this.given.some((d) => d.quad.every((p, i) => distance(p, c.quad[i]!) < near))) continue;
      out.push(c);
      this.given.push(c);
      taken[way]++;
    }
    return out;
  }
}

/**
 * Quadrilaterals that may be the card, best first (both stages of CardFinder, ranked together),
 * the whole frame last; `limit` of outlines and lines, half each, and two completed from three
 * sides when the limit is at least 6.
 */
export function findCardQuads(cv: Cv, photo: Photo, rgb: Mat, limit = 6): QuadCandidate[] {
  const finder = new CardFinder(cv, photo, rgb);
  try {
    const half = Math.ceil(limit / 2);
    const found = [...finder.outlines(half), ...finder.lines(half, limit >= 6 ? 2 : 0)].sort((a, b) => b.score - a.score);
    return [...found.slice(0, limit + (limit >= 6 ? 2 : 0)), finder.frame()];
  } finally {
    finder.delete();
  }
}

/** How much of each end of a channel's histogram stretchContrast leaves outside 0–255 (glare, deep shadow). */
const STRETCH_TAIL = 0.01;

/**
 * Each channel's levels stretched in place so its 1st–99th percentiles span 0–255: on a dim photo
 * a card's edge against a dark binder page is a step of a few levels, below Canny's thresholds.
 */
function stretchContrast(rgb: Uint8Array): void {
  for (let c = 0; c < 3; c++) {
    const histogram = new Uint32Array(256);
    for (let i = c; i < rgb.length; i += 3) histogram[rgb[i]!]!++;
    const tail = STRETCH_TAIL * (rgb.length / 3);
    // The first level whose count from the bottom passes the tail, and the same from the top.
    let low = 0;
    let below = histogram[0]!;
    while (low < 255 && below <= tail) below += histogram[++low]!;
    let high = 255;
    let above = histogram[255]!;
    while (high > 0 && above <= tail) above += histogram[--high]!;
    if (high - low < 8) continue;
    const gain = 255 / (high - low);
    for (let i = c; i < rgb.length; i += 3) rgb[i] = Math.max(0, Math.min(255, Math.round((rgb[i]! - low) * gain)));
  }
}

/**
 * The share of points along the quadrilateral's sides that fall on an edge pixel; or -1 as soon as
 * it cannot exceed `floor` (a candidate that could not be kept is not walked to its end).
 */
function edgeSupport(q: Quad, edges: Uint8Array, width: number, height: number, floor = 0): number {
  const steps = [0, 1, 2, 3].map((side) => Math.max(8, Math.round(distance(q[side]!, q[(side + 1) % 4]!) / 2)));
  const all = steps.reduce((sum, n) => sum + n - 1, 0);
  // Points off an edge allowed before the share falls to the floor.
  let spare = floor > 0 ? all * (1 - floor) : Infinity;
  let on = 0;
  for (let side = 0; side < 4; side++) {
    const a = q[side]!;
    const b = q[(side + 1) % 4]!;
    const n = steps[side]!;
    for (let k = 1; k < n; k++) {
      const x = Math.round(a.x + ((b.x - a.x) * k) / n);
      const y = Math.round(a.y + ((b.y - a.y) * k) / n);
      if (x >= 0 && y >= 0 && x < width && y < height && edges[y * width + x]! > 0) on++;
      else if (--spare <= 0) return -1;
    }
  }
  return all ? on / all : 0;
}

/** A line segment with its line's normal angle (0–π) and distance from the origin; cos and sin are of theta. */
type Line = { theta: number; rho: number; length: number; x1: number; y1: number; x2: number; y2: number; cos: number; sin: number };
/** Two nearly parallel lines and how far apart they are. */
type Pair = { a: Line; b: Line; apart: number };

/**
 * The longest distinct straight lines paired into quadrilaterals. On a cluttered table, or a card
 * whose art is full of straight strokes, the card's sides are often not among the 24 longest
 * (measured: 80 lines took top-1 from 0.958 to 0.986 for ~20 ms more a photo; see README).
 */
const DISTINCT_LINES = 80;

/**
 * Quadrilaterals whose sides are two pairs of nearly parallel line segments (a tilted card's
 * opposite sides converge by a few degrees), at least 60° apart, of a card's proportions; and
 * those completed from three sides (completedQuads). A busy photo's ~1,000 pairs make ~500,000
 * pairs of pairs and ~30,000 quadrilaterals: the geometry below is written in scalars, each line's
 * cosine and sine taken once, with the same arithmetic as on points and homogeneous vectors.
 */
function quadsFromLines(segments: Int32Array, minSide: number, view: View): { quads: CornerList; completed: CornerList } {
  const lines: Line[] = [];
  for (let i = 0; i + 3 < segments.length; i += 4) {
    const [x1, y1, x2, y2] = [segments[i]!, segments[i + 1]!, segments[i + 2]!, segments[i + 3]!];
    let theta = Math.atan2(x2 - x1, -(y2 - y1));
    if (theta < 0) theta += Math.PI;
    if (theta >= Math.PI) theta -= Math.PI;
    const cos = Math.cos(theta);
    const sin = Math.sin(theta);
    lines.push({ theta, rho: x1 * cos + y1 * sin, length: Math.hypot(x2 - x1, y2 - y1), x1, y1, x2, y2, cos, sin });
  }
  lines.sort((a, b) => b.length - a.length);
  const distinct: Line[] = [];
  for (const l of lines) {
    if (distinct.length >= DISTINCT_LINES) break;
    if (distinct.some((d) => angleGap(d.theta, l.theta) < 0.05 && Math.abs(d.rho - l.rho) < 6)) continue;
    distinct.push(l);
  }
  // Pairs of nearly parallel lines, with how far apart they are (a card's width or height).
  const pairs: Pair[] = [];
  for (let i = 0; i < distinct.length; i++)
    for (let j = i + 1; j < distinct.length; j++) {
      const a = distinct[i]!;
      const b = distinct[j]!;
      if (angleGap(a.theta, b.theta) > 0.25) continue;
      const apart = Math.abs(((b.x1 + b.x2) / 2) * a.cos + ((b.y1 + b.y2) / 2) * a.sin - a.rho);
      if (apart < 0.15 * minSide) continue;
      pairs.push({ a, b, apart });
    }
  const quads: CornerList = [];
  const corners = new Float64Array(8);
  for (let i = 0; i < pairs.length; i++) {
    const { a, b, apart: apartAB } = pairs[i]!;
    for (let j = i + 1; j < pairs.length; j++) {
      const { a: c, b: d, apart: apartCD } = pairs[j]!;
      // Cheap tests first: most pairs of pairs are not a card's proportions or not crossing.
      const proportion = Math.min(apartAB, apartCD) / Math.max(apartAB, apartCD);
      if (proportion < 0.45 || proportion > 0.95) continue;
      if (angleGap(a.theta, c.theta) < Math.PI / 3) continue;
      if (meet(a, c, corners, 0) && meet(c, b, corners, 2) && meet(b, d, corners, 4) && meet(d, a, corners, 6))
        pushIfCardLike(quads, corners, minSide);
    }
  }
  return { quads, completed: completedQuads(distinct, pairs, minSide, view) };
}

/**
 * Quadrilaterals as flat corner lists, 8 numbers each (x, y of four corners in order around it,
 * not yet clockwise from the top-left): a busy photo's lines make tens of thousands, of which
 * only the few scored need to be put in order (orderClockwise's sort cost more than all the rest).
 */
type CornerList = number[];

/** Appends the quadrilateral (its 8 numbers, corners in order around it) if it has a card's proportions and size. */
function pushIfCardLike(out: CornerList, q: Float64Array, minSide: number): void {
  // quadAspect's measure: the same whichever corner comes first and whichever way round.
  const across = (Math.hypot(q[0]! - q[2]!, q[1]! - q[3]!) + Math.hypot(q[4]! - q[6]!, q[5]! - q[7]!)) / 2;
  const down = (Math.hypot(q[2]! - q[4]!, q[3]! - q[5]!) + Math.hypot(q[6]! - q[0]!, q[7]! - q[1]!)) / 2;
  const short = Math.min(across, down);
  const long = Math.max(across, down);
  const ratio = long > 0 ? short / long : 0;
  if (short < 0.15 * minSide || ratio < 0.5 || ratio > 0.9) return;
  out.push(q[0]!, q[1]!, q[2]!, q[3]!, q[4]!, q[5]!, q[6]!, q[7]!);
}

function cornersOf(list: CornerList, i: number): Quad {
  const o = 8 * i;
  return [0, 2, 4, 6].map((k) => ({ x: list[o + k]!, y: list[o + k + 1]! })) as Quad;
}

/** A card's sides' proportions, both ways round. */
const PROPORTIONS = [CARD_HEIGHT / CARD_WIDTH, CARD_WIDTH / CARD_HEIGHT];

/** Where the photo's principal point is and the focal length assumed, in the edge map's pixels. */
type View = { cx: number; cy: number; focal: number };

/**
 * Quadrilaterals from three sides: two nearly parallel lines and a line across them that spans at
 * least half the way between them, the fourth side put where the card's proportion (either way
 * round, on either side) puts it in perspective. Clutter or a thumb over a corner often breaks
 * one side beyond what Hough finds; the refit and the side shifts then place the completed side on
 * the card's edge. A card tilted 20° or more is no rectangle in the photo: its fourth side,
 * put parallel to the third at 63:88 as if seen square on, was ~10 % of the card off (completed
 * in perspective instead: see fourthSide).
 */
function completedQuads(distinct: Line[], pairs: Pair[], minSide: number, view: View): CornerList {
  const out: CornerList = [];
  const homogeneous = (l: Line): Homogeneous => [l.cos, l.sin, view.cx * l.cos + view.cy * l.sin - l.rho];
  const corners = new Float64Array(8);
  for (const { a, b, apart } of pairs) {
    const ta = a.theta;
    const cos = a.cos;
    const sin = a.sin;
    // Offsets across `a`, in units of the pair's distance, from `a` (0) towards `b` (1).
    const towardsB = Math.sign(((b.x1 + b.x2) / 2) * cos + ((b.y1 + b.y2) / 2) * sin - a.rho) || 1;
    const across = (x: number, y: number) => ((x * cos + y * sin - a.rho) * towardsB) / apart;
    const la = homogeneous(a);
    const lb = homogeneous(b);
    // Where a and b meet (their vanishing point), and the line of the points whose direction in
    // space is square to theirs: the third and fourth sides' vanishing point lies on it.
    const v1 = cross3(la, lb);
    const square: Homogeneous = [v1[0], v1[1], view.focal * view.focal * v1[2]];
    for (const c of distinct) {
      if (c === a || c === b || angleGap(ta, c.theta) < Math.PI / 3) continue;
      const t1 = across(c.x1, c.y1);
      const t2 = across(c.x2, c.y2);
      if (Math.min(1, Math.max(t1, t2)) - Math.max(0, Math.min(t1, t2)) < 0.5) continue;
      // p (where a meets c) and q (where b meets c) are the first two corners.
      if (!meet(a, c, corners, 0) || !meet(b, c, corners, 2)) continue;
      const v2 = cross3(square, homogeneous(c));
      for (const proportion of PROPORTIONS)
        for (const side of [1, -1]) {
          if (fourthSide({ corners, a, b: lb, v2, view }, side * apart * proportion, proportion, c)) {
            pushIfCardLike(out, corners, minSide);
            continue;
          }
          // Square on: c moved across by the card's proportion of the pair's distance.
          const rho = c.rho + side * apart * proportion;
          if (!meetAt(b, c.cos, c.sin, rho, corners, 4) || !meetAt(a, c.cos, c.sin, rho, corners, 6)) continue;
          pushIfCardLike(out, corners, minSide);
        }
    }
  }
  return out;
}

/**
 * The fourth side of a card whose sides `a` (through p) and `b` (through q) and third side `c`
 * (from p to q) were found: the line through c's vanishing point `v2` (on the card's plane, the
 * direction square to a's and b's at the assumed focal length) that cuts a and b where the
 * rectangle p, q, r, s has the card's `proportion` (length along a over length along c) when the
 * perspective is undone. Found by the secant method from where a square-on view puts it (c moved
 * `shift` along its normal). p and q are `corners`' first two; r and s are written as its last
 * two when found. False when it does not settle within 0.5–2 times that distance.
 */
function fourthSide(
  o: { corners: Float64Array; a: Line; b: Homogeneous; v2: Homogeneous; view: View },
  shift: number,
  proportion: number,
  c: Line,
): boolean {
  const { corners, a, b, v2, view } = o;
  // Along a, on the side of c the shift goes.
  const ux = -a.sin;
  const uy = a.cos;
  const along = ux * c.cos + uy * c.sin;
  if (Math.abs(along) < 0.2) return false;
  const direction = Math.sign(shift * along);
  const start = Math.abs(shift / along);
  const m1x = corners[0]! - view.cx;
  const m1y = corners[1]! - view.cy;
  const m2x = corners[2]! - view.cx;
  const m2y = corners[3]! - view.cy;
  const [b0, b1, b2] = b;
  const [v20, v21, v22] = v2;
  // The corners at t: m3 along a from p, m4 where the line through m3 and v2 meets b
  // (cross3(b, cross3(m3, v2)), m3's third coordinate 1). False when m4 runs off to infinity.
  let m3x = 0;
  let m3y = 0;
  let m4x = 0;
  let m4y = 0;
  const cornersAt = (t: number): boolean => {
    m3x = m1x + direction * t * ux;
    m3y = m1y + direction * t * uy;
    const w0 = m3y * v22 - v21;
    const w1 = v20 - m3x * v22;
    const w2 = m3x * v21 - m3y * v20;
    const r2 = b0 * w1 - b1 * w0;
    if (Math.abs(r2) < 1e-9) return false;
    m4x = (b1 * w2 - b2 * w1) / r2;
    m4y = (b2 * w0 - b0 * w2) / r2;
    return true;
  };
  // How far the rectangle at t is from the card's proportion (its length along a over along c).
  const miss = (t: number) => (cornersAt(t) ? 1 / rectifiedRatio(m1x, m1y, m2x, m2y, m3x, m3y, m4x, m4y, view.focal) - proportion : NaN);
  let t0 = start;
  let t1 = 1.05 * start;
  let g0 = miss(t0);
  let g1 = miss(t1);
  for (let k = 0; k < 8 && Number.isFinite(g0) && Number.isFinite(g1) && Math.abs(g1) > 1e-3; k++) {
    if (g1 === g0) return false;
    const t2 = Math.min(2 * start, Math.max(0.5 * start, t1 - (g1 * (t1 - t0)) / (g1 - g0)));
    t0 = t1;
    g0 = g1;
    t1 = t2;
    g1 = miss(t1);
  }
  if (!(Math.abs(g1) <= 1e-2)) return false;
  cornersAt(t1);
  corners[4] = m4x + view.cx;
  corners[5] = m4y + view.cy;
  corners[6] = m3x + view.cx;
  corners[7] = m3y + view.cy;
  return true;
}

function angleGap(a: number, b: number): number {
  const d = Math.abs(a - b) % Math.PI;
  return Math.min(d, Math.PI - d);
}

/** Where lines a and b meet, written to out[at], out[at + 1]; false when they are (nearly) parallel. */
function meet(a: Line, b: Line, out: Float64Array, at: number): boolean {
  return meetAt(a, b.cos, b.sin, b.rho, out, at);
}

/** meet, with the second line given by its normal's cosine and sine and its distance from the origin. */
function meetAt(a: Line, cos: number, sin: number, rho: number, out: Float64Array, at: number): boolean {
  const det = a.cos * sin - a.sin * cos;
  if (Math.abs(det) < 1e-6) return false;
  out[at] = (a.rho * sin - rho * a.sin) / det;
  out[at + 1] = (rho * a.cos - a.rho * cos) / det;
  return true;
}

function rectangleCorners(center: Point, size: { width: number; height: number }, angleDegrees: number): Point[] {
  const a = (angleDegrees * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const hw = size.width / 2;
  const hh = size.height / 2;
  return [
    [-hw, -hh],
    [hw, -hh],
    [hw, hh],
    [-hw, hh],
  ].map(([dx, dy]) => ({ x: center.x + dx! * cos - dy! * sin, y: center.y + dx! * sin + dy! * cos }));
}

/** Quarter turns the photo may need, clockwise, in the order the spec retries them. */
export type Rotation = 0 | -90 | 180 | 90;

/**
 * The card inside `quad`, turned by `rotation` (degrees clockwise) and cut to the canonical
 * CARD_WIDTH × CARD_HEIGHT. A card over 1.5 times that size would alias in a plain warp: it is cut
 * from `half` (the photo shrunk to half by area, made once a photo) when given, and warped at
 * twice the size and shrunk by area when still too large.
 */
export function cutCard(cv: Cv, rgb: Mat, quad: Quad, rotation: Rotation, half?: () => Mat): Uint8Array {
  const large = quadAspect(quad).long > 1.5 * CARD_HEIGHT;
  const source = large && half ? half() : rgb;
  const scale = source === rgb ? 1 : 0.5;
  // Turning the photo clockwise by 90° brings its bottom-left corner to the top-left.
  const shift = rotation === 0 ? 0 : rotation === 90 ? 3 : rotation === 180 ? 2 : 1;
  const corners = [0, 1, 2, 3].map((i) => quad[(i + shift) % 4]!);
  const factor = quadAspect(quad).long * scale > 1.5 * CARD_HEIGHT ? 2 : 1;
  return withMats((keep) => {
    const from = keep(
      cv.matFromArray(
        4,
        1,
        cv.CV_32FC2,
        corners.flatMap((p) => [p.x * scale, p.y * scale]),
      ),
    );
    const W = CARD_WIDTH * factor;
    const H = CARD_HEIGHT * factor;
    const to = keep(cv.matFromArray(4, 1, cv.CV_32FC2, [0, 0, W, 0, W, H, 0, H]));
    const transform = keep(cv.getPerspectiveTransform(from, to));
    const big = keep(new cv.Mat());
    cv.warpPerspective(source, big, transform, new cv.Size(W, H), cv.INTER_LINEAR, cv.BORDER_REPLICATE);
    if (factor === 1) return Uint8Array.from(big.data);
    const card = keep(new cv.Mat());
    cv.resize(big, card, new cv.Size(CARD_WIDTH, CARD_HEIGHT), 0, 0, cv.INTER_AREA);
    return Uint8Array.from(card.data);
  });
}

/** The photo shrunk to half by area (an even crop of it, so the shrink is exact and fast). */
export function halfRaster(cv: Cv, rgb: Mat): Mat {
  const even = rgb.roi(new cv.Rect(0, 0, rgb.cols & ~1, rgb.rows & ~1));
  try {
    const half = new cv.Mat();
    cv.resize(even, half, new cv.Size(even.cols / 2, even.rows / 2), 0, 0, cv.INTER_AREA);
    return half;
  } finally {
    even.delete();
  }
}

/** The side of the square cut from the card's centre at the photo's own resolution. */
export const PATCH_SIDE = 128;

/**
 * A grey PATCH_SIDE square from the middle of the card at the working raster's own resolution
 * (no resampling beyond the perspective correction), where a screen's pixel grid still shows.
 * Only the square is warped: the card's corners are mapped as if the whole card were, shifted so
 * its middle square lands on the output.
 */
export function centrePatch(cv: Cv, rgb: Mat, quad: Quad): Uint8Array {
  return withMats((keep) => {
    const { short, long } = quadAspect(quad);
    const upright = distance(quad[0], quad[1]) <= distance(quad[1], quad[2]);
    const W = Math.max(PATCH_SIDE, Math.round(upright ? short : long));
    const H = Math.max(PATCH_SIDE, Math.round(upright ? long : short));
    const left = (W - PATCH_SIDE) >> 1;
    const top = (H - PATCH_SIDE) >> 1;
    const from = keep(
      cv.matFromArray(
        4,
        1,
        cv.CV_32FC2,
        quad.flatMap((p) => [p.x, p.y]),
      ),
    );
    const to = keep(cv.matFromArray(4, 1, cv.CV_32FC2, [-left, -top, W - left, -top, W - left, H - top, -left, H - top]));
    const transform = keep(cv.getPerspectiveTransform(from, to));
    const patch = keep(new cv.Mat());
    cv.warpPerspective(rgb, patch, transform, new cv.Size(PATCH_SIDE, PATCH_SIDE), cv.INTER_LINEAR, cv.BORDER_REPLICATE);
    const grey = keep(new cv.Mat());
    cv.cvtColor(patch, grey, cv.COLOR_RGB2GRAY);
    return Uint8Array.from(grey.data);
  });
}
