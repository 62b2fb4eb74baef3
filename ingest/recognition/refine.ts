// A card's sides placed at the working raster's full resolution. The finder works on a 480-px copy,
// where one pixel is two or three working pixels, and its lines may lean on clutter beside the
// card; the perceptual hash already notices a cut that is off by 2 % of the card.
import type { Point, Quad } from './photo.js';

/** A grey raster, one byte a pixel. */
export type Grey = { data: Uint8Array; width: number; height: number };

/** Points sampled along each side. */
const SAMPLES = 40;
/** How far across a side its edge is searched, as a share of the side's length. */
const REACH = 0.025;
/** A side point counts only on a step at least this large (grey levels across two pixels). */
const MIN_STEP = 10;
/** A side is refitted only when this share of its points lie on one straight edge. */
const MIN_INLIERS = 0.45;

type Line = { x: number; y: number; dx: number; dy: number };

function bilinear(g: Grey, x: number, y: number): number {
  const x0 = Math.max(0, Math.min(g.width - 2, Math.floor(x)));
  const y0 = Math.max(0, Math.min(g.height - 2, Math.floor(y)));
  const fx = Math.max(0, Math.min(1, x - x0));
  const fy = Math.max(0, Math.min(1, y - y0));
  const i = y0 * g.width + x0;
  const d = g.data;
  return (d[i]! * (1 - fx) + d[i + 1]! * fx) * (1 - fy) + (d[i + g.width]! * (1 - fx) + d[i + g.width + 1]! * fx) * fy;
}

/** The straight line through weighted points (total least squares), and each point's distance from it. */
function fitLine(points: { x: number; y: number; w: number }[]): Line {
  let sw = 0;
  let mx = 0;
  let my = 0;
  for (const p of points) {
    sw += p.w;
    mx += p.w * p.x;
    my += p.w * p.y;
  }
  mx /= sw;
  my /= sw;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (const p of points) {
    sxx += p.w * (p.x - mx) ** 2;
    sxy += p.w * (p.x - mx) * (p.y - my);
    syy += p.w * (p.y - my) ** 2;
  }
  // The principal axis of the scatter.
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  return { x: mx, y: my, dx: Math.cos(angle), dy: Math.sin(angle) };
}

const offLine = (l: Line, p: Point) => Math.abs((p.x - l.x) * l.dy - (p.y - l.y) * l.dx);

/** One side of a quadrilateral: its ends, length, line, outward unit normal, and the card's extent across it. */
type Side = { a: Point; b: Point; length: number; line: Line; normal: { x: number; y: number }; across: number };

/** The four sides of a quadrilateral (side i runs from corner i to corner i + 1). */
function sidesOf(quad: Quad): Side[] {
  const cx = (quad[0].x + quad[1].x + quad[2].x + quad[3].x) / 4;
  const cy = (quad[0].y + quad[1].y + quad[2].y + quad[3].y) / 4;
  const corner = (i: number) => quad[i % 4]!;
  return [0, 1, 2, 3].map((i) => {
    const a = corner(i);
    const b = corner(i + 1);
    const length = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    let normal = { x: -(b.y - a.y) / length, y: (b.x - a.x) / length };
    if (((a.x + b.x) / 2 - cx) * normal.x + ((a.y + b.y) / 2 - cy) * normal.y < 0) normal = { x: -normal.x, y: -normal.y };
    const across =
      (Math.hypot(corner(i + 3).x - a.x, corner(i + 3).y - a.y) + Math.hypot(corner(i + 2).x - b.x, corner(i + 2).y - b.y)) / 2;
    return { a, b, length, line: { x: a.x, y: a.y, dx: (b.x - a.x) / length, dy: (b.y - a.y) / length }, normal, across };
  });
}

/** The quadrilateral whose sides lie on `lines` (corner i where line i − 1 meets line i), or null where two do not cross. */
function quadOnLines(lines: Line[]): Quad | null {
  const corners: Point[] = [];
  for (let i = 0; i < 4; i++) {
    const corner = intersection(lines[(i + 3) % 4]!, lines[i]!);
    if (!corner) return null;
    corners.push(corner);
  }
  return corners as Quad;
}

/** Grey levels across a side at `(px, py)`: `profile[k]` is offset `from − 1 + k` along `normal`. */
function sampleAcross(grey: Grey, px: number, py: number, normal: { x: number; y: number }, from: number, profile: Float64Array): void {
  for (let k = 0; k < profile.length; k++) profile[k] = bilinear(grey, px + (from - 1 + k) * normal.x, py + (from - 1 + k) * normal.y);
}

/**
 * Where a side's edge is searched: offsets `from`..`to` pixels along its outward normal, and how
 * strongly the nearest to `centre` is favoured (null: only the strongest step counts).
 */
type Window = { from: number; to: number; centre: number | null };

/**
 * Side `a → b` refitted to the strongest grey step within `window` across it, or null when too
 * few points along it find one on a common line.
 */
function refineSide(grey: Grey, { a, b, normal }: Side, window: Window): Line | null {
  const { x: nx, y: ny } = normal;
  const from = Math.round(window.from);
  const to = Math.round(window.to);
  const spread = 0.6 * Math.max(1, (to - from) / 2);
  const points: { x: number; y: number; w: number }[] = [];
  const profile = new Float64Array(to - from + 3);
  for (let k = 0; k < SAMPLES; k++) {
    // Clear of the corners, which are rounded on a card.
    const t = 0.1 + (0.8 * k) / (SAMPLES - 1);
    const px = a.x + t * (b.x - a.x);
    const py = a.y + t * (b.y - a.y);
    sampleAcross(grey, px, py, normal, from, profile);
    const at = (s: number) => Math.abs(profile[s - from + 2]! - profile[s - from]!);
    let best = from;
    let bestScore = 0;
    let bestStep = 0;
    for (let s = from; s <= to; s++) {
      const step = at(s);
      const score = window.centre === null ? step : step * Math.exp(-0.5 * ((s - window.centre) / spread) ** 2);
      if (score > bestScore) {
        bestScore = score;
        bestStep = step;
        best = s;
      }
    }
    if (bestStep < MIN_STEP) continue;
    // Sub-pixel: the vertex of the parabola through the step's neighbours.
    let offset = best;
    if (best > from && best < to) {
      const l = at(best - 1);
      const r = at(best + 1);
      const denominator = l - 2 * bestStep + r;
      if (denominator < 0) offset += (0.5 * (l - r)) / denominator;
    }
    points.push({ x: px + offset * nx, y: py + offset * ny, w: bestStep });
  }
  if (points.length < MIN_INLIERS * SAMPLES) return null;
  // Twice: fit, drop the points off the line (clutter, a glare patch), fit again.
  let inliers = points;
  let line = fitLine(inliers);
  for (const tolerance of [3, 1.5]) {
    inliers = inliers.filter((p) => offLine(line, p) <= tolerance);
    if (inliers.length < MIN_INLIERS * SAMPLES) return null;
    line = fitLine(inliers);
  }
  return line;
}

function intersection(l: Line, m: Line): Point | null {
  const det = l.dx * m.dy - l.dy * m.dx;
  if (Math.abs(det) < 1e-6) return null;
  const t = ((m.x - l.x) * m.dy - (m.y - l.y) * m.dx) / det;
  return { x: l.x + t * l.dx, y: l.y + t * l.dy };
}

/**
 * The quadrilateral with each side moved onto the grey step it lies along, at sub-pixel
 * precision; a side without a clear straight step keeps its place. Null when nothing moved.
 */
export function refineQuad(grey: Grey, quad: Quad): Quad | null {
  return fitSides(grey, quad, (length) => {
    const reach = Math.max(3, REACH * length);
    return { from: -reach, to: reach, centre: 0 };
  });
}

/** How far inside a quadrilateral a nested one is looked for, as a share of the card across. */
const INSET = { from: 0.012, to: 0.075 } as const;

/**
 * The quadrilateral nested inside `quad`: each side moved inwards onto the strongest straight
 * step 1–7.5 % of the card in (a sleeve's margin around the card, or a card's printed border
 * around its frame). Null unless all four sides find one.
 */
export function innerQuad(grey: Grey, quad: Quad): Quad | null {
  return fitSides(grey, quad, (_, across) => ({ from: -INSET.to * across, to: -INSET.from * across, centre: null }), true);
}

function fitSides(grey: Grey, quad: Quad, windowOf: (length: number, across: number) => Window, allSides = false): Quad | null {
  const lines: Line[] = [];
  let refined = 0;
  for (const side of sidesOf(quad)) {
    if (side.length < 16) return null;
    const line = refineSide(grey, side, windowOf(side.length, side.across));
    if (line) refined++;
    else if (allSides) return null;
    lines.push(line ?? side.line);
  }
  if (refined === 0) return null;
  const moved = quadOnLines(lines);
  // A corner that ran off (two sides nearly parallel after refitting) means the fit went wrong.
  const limit = 0.1 * Math.hypot(grey.width, grey.height);
  if (!moved || moved.some((c, i) => Math.hypot(c.x - quad[i]!.x, c.y - quad[i]!.y) > limit)) return null;
  return moved;
}

/** How far a side is moved looking for another straight edge, as a share of the card across. */
const SHIFT_REACH = 0.12;
/** Other edges tried a side. */
const SHIFTS_PER_SIDE = 2;

/**
 * Variants of `quad` with one side moved onto another straight edge parallel to it, up to
 * SHIFT_REACH of the card inwards or outwards: the side the finder put on a card's inner frame,
 * on its sleeve, or on clutter beside it, moved onto the next edge. Each straight edge shows as a
 * peak in how many points along the side find a step at that offset.
 */
export function sideShifts(grey: Grey, quad: Quad): Quad[] {
  const sides = sidesOf(quad);
  const out: Quad[] = [];
  for (const [index, side] of sides.entries()) {
    const { a, b, normal, across } = side;
    if (side.length < 16) continue;
    const reach = Math.max(4, Math.round(SHIFT_REACH * across));
    const votes = new Float64Array(2 * reach + 1);
    const profile = new Float64Array(2 * reach + 3);
    for (let k = 0; k < SAMPLES; k++) {
      const t = 0.1 + (0.8 * k) / (SAMPLES - 1);
      const px = a.x + t * (b.x - a.x);
      const py = a.y + t * (b.y - a.y);
      sampleAcross(grey, px, py, normal, -reach, profile);
      const step = (s: number) => Math.abs(profile[s + reach + 2]! - profile[s + reach]!);
      // Each local maximum of the step along this line of sight is a vote for an edge there.
      for (let s = -reach + 1; s < reach; s++) {
        const v = step(s);
        if (v >= MIN_STEP && v >= step(s - 1) && v > step(s + 1)) votes[s + reach]! += 1;
      }
    }
    // Votes smoothed over ±2 px (a tilted edge drifts across offsets), peaks away from the side itself.
    const smooth = (s: number) => {
      let v = 0;
      for (let d = -2; d <= 2; d++) v += votes[Math.max(0, Math.min(2 * reach, s + d + reach))]!;
      return v;
    };
    const peaks: { s: number; v: number }[] = [];
    for (let s = -reach + 1; s < reach; s++) {
      if (Math.abs(s) <= Math.max(2, 0.012 * across)) continue;
      const v = smooth(s);
      if (v >= MIN_INLIERS * SAMPLES && v >= smooth(s - 1) && v > smooth(s + 1)) peaks.push({ s, v });
    }
    peaks.sort((p, q) => q.v - p.v);
    for (const { s } of peaks.slice(0, SHIFTS_PER_SIDE)) {
      const line = refineSide(grey, side, { from: s - 3, to: s + 3, centre: s });
      const shifted = line && quadOnLines(sides.map((other, i) => (i === index ? line : other.line)));
      if (shifted) out.push(shifted);
    }
  }
  return out;
}
