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

/**
 * Where a side's edge is searched: offsets `from`..`to` pixels along its outward normal, and how
 * strongly the nearest to `centre` is favoured (null: only the strongest step counts).
 */
type Window = { from: number; to: number; centre: number | null };

/**
 * Side `a → b` refitted to the strongest grey step within `window` across it, or null when too
 * few points along it find one on a common line.
 */
function refineSide(grey: Grey, a: Point, b: Point, outward: { x: number; y: number }, window: Window): Line | null {
  const { x: nx, y: ny } = outward;
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
    for (let s = from - 1; s <= to + 1; s++) profile[s - from + 1] = bilinear(grey, px + s * nx, py + s * ny);
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
  const cx = (quad[0].x + quad[1].x + quad[2].x + quad[3].x) / 4;
  const cy = (quad[0].y + quad[1].y + quad[2].y + quad[3].y) / 4;
  const lines: Line[] = [];
  let refined = 0;
  for (let side = 0; side < 4; side++) {
    const a = quad[side]!;
    const b = quad[(side + 1) % 4]!;
    const length = Math.hypot(b.x - a.x, b.y - a.y);
    if (length < 16) return null;
    let normal = { x: -(b.y - a.y) / length, y: (b.x - a.x) / length };
    if (((a.x + b.x) / 2 - cx) * normal.x + ((a.y + b.y) / 2 - cy) * normal.y < 0) normal = { x: -normal.x, y: -normal.y };
    const across =
      (Math.hypot(quad[(side + 3) % 4]!.x - a.x, quad[(side + 3) % 4]!.y - a.y) +
        Math.hypot(quad[(side + 2) % 4]!.x - b.x, quad[(side + 2) % 4]!.y - b.y)) /
      2;
    const line = refineSide(grey, a, b, normal, windowOf(length, across));
    if (line) refined++;
    else if (allSides) return null;
    lines.push(line ?? { x: a.x, y: a.y, dx: (b.x - a.x) / length, dy: (b.y - a.y) / length });
  }
  if (refined === 0) return null;
  const corners: Point[] = [];
  for (let i = 0; i < 4; i++) {
    const corner = intersection(lines[(i + 3) % 4]!, lines[i]!);
    // A corner that ran off (two sides nearly parallel after refitting) means the fit went wrong.
    if (!corner || Math.hypot(corner.x - quad[i]!.x, corner.y - quad[i]!.y) > 0.1 * Math.hypot(grey.width, grey.height)) return null;
    corners.push(corner);
  }
  return corners as Quad;
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
  const cx = (quad[0].x + quad[1].x + quad[2].x + quad[3].x) / 4;
  const cy = (quad[0].y + quad[1].y + quad[2].y + quad[3].y) / 4;
  const out: Quad[] = [];
  for (let side = 0; side < 4; side++) {
    const a = quad[side]!;
    const b = quad[(side + 1) % 4]!;
    const length = Math.hypot(b.x - a.x, b.y - a.y);
    if (length < 16) continue;
    let normal = { x: -(b.y - a.y) / length, y: (b.x - a.x) / length };
    if (((a.x + b.x) / 2 - cx) * normal.x + ((a.y + b.y) / 2 - cy) * normal.y < 0) normal = { x: -normal.x, y: -normal.y };
    const across =
      (Math.hypot(quad[(side + 3) % 4]!.x - a.x, quad[(side + 3) % 4]!.y - a.y) +
        Math.hypot(quad[(side + 2) % 4]!.x - b.x, quad[(side + 2) % 4]!.y - b.y)) /
      2;
    const reach = Math.max(4, Math.round(SHIFT_REACH * across));
    const votes = new Float64Array(2 * reach + 1);
    const profile = new Float64Array(2 * reach + 3);
    for (let k = 0; k < SAMPLES; k++) {
      const t = 0.1 + (0.8 * k) / (SAMPLES - 1);
      const px = a.x + t * (b.x - a.x);
      const py = a.y + t * (b.y - a.y);
      for (let s = -reach - 1; s <= reach + 1; s++) profile[s + reach + 1] = bilinear(grey, px + s * normal.x, py + s * normal.y);
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
      const line = refineSide(grey, a, b, normal, { from: s - 3, to: s + 3, centre: s });
      if (!line) continue;
      const sides: Line[] = [];
      for (let i = 0; i < 4; i++) {
        const p = quad[i]!;
        const q = quad[(i + 1) % 4]!;
        const l = Math.hypot(q.x - p.x, q.y - p.y);
        sides.push(i === side ? line : { x: p.x, y: p.y, dx: (q.x - p.x) / l, dy: (q.y - p.y) / l });
      }
      const corners: Point[] = [];
      for (let i = 0; i < 4; i++) {
        const corner = intersection(sides[(i + 3) % 4]!, sides[i]!);
        if (corner) corners.push(corner);
      }
      if (corners.length === 4) out.push(corners as Quad);
    }
  }
  return out;
}
