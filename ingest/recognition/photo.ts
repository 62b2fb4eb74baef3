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
const dot3 = (a: Homogeneous, b: Homogeneous) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/**
 * Width over height of the rectangle photographed as corners m1 (its top-left), m2 (top-right),
 * m3 (bottom-left) and m4 (bottom-right), each with 1 as its third coordinate, seen by a camera of
 * focal length `focal` (Zhang & He, "Whiteboard scanning and image enhancement", 2007). The focal
 * length is assumed rather than taken from the quadrilateral's vanishing points as they do: that
 * estimate was off by half on a card tilted 16° (its principal point is not the photo's middle
 * once a photo is cropped). NaN when the corners are degenerate.
 */
function rectifiedRatio(m1: Homogeneous, m2: Homogeneous, m3: Homogeneous, m4: Homogeneous, focal: number): number {
  const d2 = dot3(cross3(m2, m4), m3);
  const d3 = dot3(cross3(m3, m4), m2);
  if (d2 === 0 || d3 === 0) return NaN;
  const k2 = dot3(cross3(m1, m4), m3) / d2;
  const k3 = dot3(cross3(m1, m4), m2) / d3;
  const n2 = [k2 * m2[0] - m1[0], k2 * m2[1] - m1[1], k2 - 1] as const;
  const n3 = [k3 * m3[0] - m1[0], k3 * m3[1] - m1[1], k3 - 1] as const;
  const f = focal;
  const w = n2[0] ** 2 + n2[1] ** 2 + f * f * n2[2] ** 2;
  const h = n3[0] ** 2 + n3[1] ** 2 + f * f * n3[2] ** 2;
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
  const m = q.map((p): Homogeneous => [p.x - centre.x, p.y - centre.y, 1]) as [Homogeneous, Homogeneous, Homogeneous, Homogeneous];
  const ratio = rectifiedRatio(m[0], m[1], m[3], m[2], focal);
  // The plane's normal is Kᵀ times its vanishing line (through both pairs of sides' meeting points).
  const side = (i: number) => cross3(m[i]!, m[(i + 1) % 4]!);
  const horizon = cross3(cross3(side(0), side(2)), cross3(side(1), side(3)));
  const normal = [focal * horizon[0], focal * horizon[1], horizon[2]] as const;
  const length = Math.hypot(normal[0], normal[1], normal[2]);
  const tilt = length > 0 ? Math.acos(Math.min(1, Math.abs(normal[2]) / length)) : 0;
  return Number.isFinite(ratio) ? { ratio: Math.min(ratio, 1 / ratio), tilt } : { ratio: quadAspect(q).ratio, tilt: 0 };
}

function quadArea(q: Quad): number {
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
        const small = keep(new cv.Mat());
        cv.resize(rgb, small, new cv.Size(this.width, this.height), 0, 0, cv.INTER_AREA);
        if (opts.stretch) stretchContrast(small.data);
        cv.GaussianBlur(small, small, new cv.Size(5, 5), 0);
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
    const off = aroundCentre ? 0 : Math.hypot(cx - this.width / 2, cy - this.height / 2) / Math.hypot(this.width / 2, this.height / 2);
    const steep = Math.max(0, tilt - FREE_TILT) / TILT_SPREAD;
    return (
      Math.exp(-8 * Math.abs(Math.log(ratio / CARD_ASPECT))) *
      Math.exp(-(steep * steep)) *
      Math.min(1, area / (FULL_SHARE * this.imageArea)) *
      Math.exp(-((off / CENTRE_SPREAD) ** 2))
    );
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
      const shapes = new Float64Array(quads.length / 8);
      const shaped: number[] = [];
      for (let i = 0; i < shapes.length; i++) {
        const corners = cornersOf(quads, i);
        const area = quadArea(corners);
        if (area < 0.04 * this.imageArea) continue;
        const cx = (corners[0].x + corners[1].x + corners[2].x + corners[3].x) / 4;
        const cy = (corners[0].y + corners[1].y + corners[2].y + corners[3].y) / 4;
        shapes[i] = this.shapeOf(this.aspectOf(corners), area, cx, cy, this.aroundCentre(corners));
        shaped.push(i);
      }
      shaped.sort((i, j) => shapes[j]! - shapes[i]! || i - j);
      const kept: QuadCandidate[] = [];
      for (const i of shaped) {
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

type Line = { theta: number; rho: number; length: number; x1: number; y1: number; x2: number; y2: number };

/**
 * The longest distinct straight lines paired into quadrilaterals. On a cluttered table, or a card
 * whose art is full of straight strokes, the card's sides are often not among the 24 longest
 * (measured: 80 lines took top-1 from 0.958 to 0.986 for ~20 ms more a photo; see README).
 */
const DISTINCT_LINES = 80;

/**
 * Quadrilaterals whose sides are two pairs of nearly parallel line segments (a tilted card's
 * opposite sides converge by a few degrees), at least 60° apart, of a card's proportions; and
 * those completed from three sides (completedQuads).
 */
function quadsFromLines(segments: Int32Array, minSide: number, view: View): { quads: CornerList; completed: CornerList } {
  const lines: Line[] = [];
  for (let i = 0; i + 3 < segments.length; i += 4) {
    const [x1, y1, x2, y2] = [segments[i]!, segments[i + 1]!, segments[i + 2]!, segments[i + 3]!];
    let theta = Math.atan2(x2 - x1, -(y2 - y1));
    if (theta < 0) theta += Math.PI;
    if (theta >= Math.PI) theta -= Math.PI;
    lines.push({ theta, rho: x1 * Math.cos(theta) + y1 * Math.sin(theta), length: Math.hypot(x2 - x1, y2 - y1), x1, y1, x2, y2 });
  }
  lines.sort((a, b) => b.length - a.length);
  const distinct: Line[] = [];
  for (const l of lines) {
    if (distinct.length >= DISTINCT_LINES) break;
    if (distinct.some((d) => angleGap(d.theta, l.theta) < 0.05 && Math.abs(d.rho - l.rho) < 6)) continue;
    distinct.push(l);
  }
  // Pairs of nearly parallel lines, with how far apart they are (a card's width or height).
  const pairs: [Line, Line, number, number][] = [];
  for (let i = 0; i < distinct.length; i++)
    for (let j = i + 1; j < distinct.length; j++) {
      const a = distinct[i]!;
      const b = distinct[j]!;
      if (angleGap(a.theta, b.theta) > 0.25) continue;
      const mid = { x: (b.x1 + b.x2) / 2, y: (b.y1 + b.y2) / 2 };
      const apart = Math.abs(mid.x * Math.cos(a.theta) + mid.y * Math.sin(a.theta) - a.rho);
      if (apart < 0.15 * minSide) continue;
      pairs.push([a, b, a.theta, apart]);
    }
  const quads: CornerList = [];
  for (let i = 0; i < pairs.length; i++)
    for (let j = i + 1; j < pairs.length; j++) {
      const [a, b, ta, apartAB] = pairs[i]!;
      const [c, d, tc, apartCD] = pairs[j]!;
      // Cheap tests first: most pairs of pairs are not a card's proportions or not crossing.
      const proportion = Math.min(apartAB, apartCD) / Math.max(apartAB, apartCD);
      if (proportion < 0.45 || proportion > 0.95) continue;
      if (angleGap(ta, tc) < Math.PI / 3) continue;
      const corners = [intersect(a, c), intersect(c, b), intersect(b, d), intersect(d, a)];
      if (corners.some((p) => p === null)) continue;
      pushIfCardLike(quads, corners as Quad, minSide);
    }
  return { quads, completed: completedQuads(distinct, pairs, minSide, view) };
}

/**
 * Quadrilaterals as flat corner lists, 8 numbers each (x, y of four corners in order around it,
 * not yet clockwise from the top-left): a busy photo's lines make tens of thousands, of which
 * only the few scored need to be put in order (orderClockwise's sort cost more than all the rest).
 */
type CornerList = number[];

/** Appends the quadrilateral (corners in order around it) if it has a card's proportions and size. */
function pushIfCardLike(out: CornerList, q: Quad, minSide: number): void {
  // quadAspect's measure: the same whichever corner comes first and whichever way round.
  const { ratio, short } = quadAspect(q);
  if (short < 0.15 * minSide || ratio < 0.5 || ratio > 0.9) return;
  out.push(q[0].x, q[0].y, q[1].x, q[1].y, q[2].x, q[2].y, q[3].x, q[3].y);
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
function completedQuads(distinct: Line[], pairs: [Line, Line, number, number][], minSide: number, view: View): CornerList {
  const out: CornerList = [];
  const homogeneous = (l: Line): Homogeneous => {
    const cos = Math.cos(l.theta);
    const sin = Math.sin(l.theta);
    return [cos, sin, view.cx * cos + view.cy * sin - l.rho];
  };
  for (const [a, b, ta, apart] of pairs) {
    const cos = Math.cos(ta);
    const sin = Math.sin(ta);
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
      const p = intersect(a, c);
      const q = intersect(b, c);
      if (!p || !q) continue;
      const lc = homogeneous(c);
      const v2 = cross3(square, lc);
      for (const proportion of PROPORTIONS)
        for (const side of [1, -1]) {
          const placed = fourthSide({ p, q, a, b: lb, v2, view }, side * apart * proportion, proportion, c);
          if (placed) {
            pushIfCardLike(out, [p, q, placed.r, placed.s], minSide);
            continue;
          }
          const d = { ...c, rho: c.rho + side * apart * proportion };
          const r = intersect(b, d);
          const s = intersect(a, d);
          if (!r || !s) continue;
          pushIfCardLike(out, [p, q, r, s], minSide);
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
 * `shift` along its normal). Null when it does not settle within 0.5–2 times that distance.
 */
function fourthSide(
  o: { p: Point; q: Point; a: Line; b: Homogeneous; v2: Homogeneous; view: View },
  shift: number,
  proportion: number,
  c: Line,
): { r: Point; s: Point } | null {
  const { p, q, a, b, v2, view } = o;
  // Along a, on the side of c the shift goes.
  const ux = -Math.sin(a.theta);
  const uy = Math.cos(a.theta);
  const along = ux * Math.cos(c.theta) + uy * Math.sin(c.theta);
  if (Math.abs(along) < 0.2) return null;
  const direction = Math.sign(shift * along);
  const start = Math.abs(shift / along);
  const m1: Homogeneous = [p.x - view.cx, p.y - view.cy, 1];
  const m2: Homogeneous = [q.x - view.cx, q.y - view.cy, 1];
  const corners = (t: number) => {
    const m3: Homogeneous = [m1[0] + direction * t * ux, m1[1] + direction * t * uy, 1];
    const r = cross3(b, cross3(m3, v2));
    if (Math.abs(r[2]) < 1e-9) return null;
    const m4: Homogeneous = [r[0] / r[2], r[1] / r[2], 1];
    return { m3, m4 };
  };
  // How far the rectangle at t is from the card's proportion (its length along a over along c).
  const miss = (t: number) => {
    const at = corners(t);
    return at ? 1 / rectifiedRatio(m1, m2, at.m3, at.m4, view.focal) - proportion : NaN;
  };
  let t0 = start;
  let t1 = 1.05 * start;
  let g0 = miss(t0);
  let g1 = miss(t1);
  for (let k = 0; k < 8 && Number.isFinite(g0) && Number.isFinite(g1) && Math.abs(g1) > 1e-3; k++) {
    if (g1 === g0) return null;
    const t2 = Math.min(2 * start, Math.max(0.5 * start, t1 - (g1 * (t1 - t0)) / (g1 - g0)));
    [t0, g0] = [t1, g1];
    t1 = t2;
    g1 = miss(t1);
  }
  if (!(Math.abs(g1) <= 1e-2)) return null;
  const at = corners(t1)!;
  return {
    s: { x: at.m3[0] + view.cx, y: at.m3[1] + view.cy },
    r: { x: at.m4[0] + view.cx, y: at.m4[1] + view.cy },
  };
}

function angleGap(a: number, b: number): number {
  const d = Math.abs(a - b) % Math.PI;
  return Math.min(d, Math.PI - d);
}

function intersect(a: Line, b: Line): Point | null {
  const det = Math.cos(a.theta) * Math.sin(b.theta) - Math.sin(a.theta) * Math.cos(b.theta);
  if (Math.abs(det) < 1e-6) return null;
  return {
    x: (a.rho * Math.sin(b.theta) - b.rho * Math.sin(a.theta)) / det,
    y: (b.rho * Math.cos(a.theta) - a.rho * Math.cos(b.theta)) / det,
  };
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
