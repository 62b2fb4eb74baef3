// Recognition of one photo: the card's quadrilateral, cut out in perspective, matched against the
// index; the three other quarter turns tried when the first pass is unsure, then the unsure cuts'
// sides moved onto the straight edges beside them.
import { cardFeatures, highlightShare } from './features.js';
import type { MatchResult, RecognitionIndex } from './matcher.js';
import type { Cv, Mat } from './opencv.js';
import { withMats } from './opencv.js';
import { innerQuad, refineQuad, sideShifts, type Grey } from './refine.js';
import { centrePatch, cutCard, findCardQuads, quadAspect, type Photo, type Quad, type QuadCandidate, type Rotation } from './photo.js';
import { captureQuality, screenPeakRatio, sharpnessOf, type CaptureQuality } from './quality.js';

/** A first pass at least this confident, and this far ahead of the runner-up, is not retried. */
export const ACCEPT_CONFIDENCE = 0.9;
const RETRY_ROTATIONS: Rotation[] = [-90, 180, 90];
/** Side shifts start from the best pass of this many quadrilaterals, for at most this many rounds each. */
const SHIFT_STARTS = 3;
const SHIFT_ROUNDS = 2;

export type PassResult = { candidate: QuadCandidate; rotation: Rotation; match: MatchResult; card: Uint8Array };

export type PhotoRecognition = {
  best: PassResult | null;
  quality: CaptureQuality;
  /** Every quadrilateral considered, best first (the whole frame last). */
  quads: QuadCandidate[];
  retried: boolean;
  passes: number;
};

export function recognisePhoto(cv: Cv, index: RecognitionIndex, photo: Photo): PhotoRecognition {
  const rgb = cv.matFromArray(photo.height, photo.width, cv.CV_8UC3, photo.rgb);
  try {
    const grey = greyOf(cv, rgb);
    const quads = candidateQuads(grey, findCardQuads(cv, photo, rgb));
    let passes = 0;
    let best: PassResult | null = null;
    // Each quadrilateral is warped once, standing up (0 or 90); its half turn (180 or −90) is that
    // cut's pixels in reverse order, which costs nothing next to a warp.
    const cuts = new Map<QuadCandidate, Uint8Array>();
    const cutAt = (candidate: QuadCandidate, rotation: Rotation): Uint8Array => {
      const standing: Rotation = rotation === 0 || rotation === 180 ? 0 : 90;
      let cut = cuts.get(candidate);
      if (!cut) cuts.set(candidate, (cut = cutCard(cv, rgb, candidate.quad, standing)));
      return rotation === standing ? cut : halfTurn(cut);
    };
    // The best pass of each quadrilateral found (where side shifts start from).
    const bestOf = new Map<QuadCandidate, PassResult>();
    const better = (a: PassResult, b: PassResult | null | undefined) =>
      !b ||
      a.match.confidence > b.match.confidence ||
      (a.match.confidence === b.match.confidence && a.match.separation > b.match.separation);
    const tryPass = (candidate: QuadCandidate, rotation: Rotation): PassResult => {
      const card = cutAt(candidate, rotation);
      const match = index.match(cardFeatures(cv, card, { photo: true }));
      passes++;
      const pass = { candidate, rotation, match, card };
      if (better(pass, best)) best = pass;
      if (better(pass, bestOf.get(candidate))) bestOf.set(candidate, pass);
      return pass;
    };
    // A card stands taller than wide: a quadrilateral lying on its side is tried only at the
    // quarter turns that stand it up, one upright at 0 and 180 only.
    const upright = quads.map((q) => isUpright(q.quad));
    quads.forEach((q, i) => upright[i] && tryPass(q, 0));
    const sure = (r: PassResult | null) => r !== null && r.match.confidence >= ACCEPT_CONFIDENCE;
    const retried = !sure(best);
    if (retried) for (const rotation of RETRY_ROTATIONS) quads.forEach((q, i) => upright[i] === (rotation === 180) && tryPass(q, rotation));
    // Still unsure: the best cuts of the most promising quadrilaterals have their sides moved, one at
    // a time, onto the other straight edges beside them, kept while the match grows surer (a side
    // on the card's inner frame, its sleeve or clutter).
    if (!sure(best)) {
      const starts = [...bestOf.values()]
        .filter((p) => p.candidate.found !== 'frame')
        .sort((p, q) => q.match.confidence - p.match.confidence || q.match.separation - p.match.separation)
        .slice(0, SHIFT_STARTS);
      for (const first of starts) {
        let start: PassResult = first;
        for (let round = 0; round < SHIFT_ROUNDS && !sure(best); round++) {
          let improved: PassResult | null = null;
          for (const quad of sideShifts(grey, start.candidate.quad)) {
            const pass = tryPass({ ...start.candidate, quad }, start.rotation);
            if (pass.match.confidence > (improved ?? start).match.confidence) improved = pass;
          }
          if (!improved) break;
          start = improved;
        }
      }
    }
    const chosen = best as PassResult | null;
    const quality = captureQuality({
      sharpness: chosen ? sharpnessOf(cv, chosen.card) : 0,
      glare: chosen ? Math.max(0, highlightShare(chosen.card) - (chosen.match.ranked[0]?.highlight ?? 0)) : 0,
      screen: chosen ? screenPeakRatio(cv, centrePatch(cv, rgb, chosen.candidate.quad)) : 0,
      cardPixels: chosen ? quadAspect(chosen.candidate.quad).long * photo.scale : 0,
      confidence: chosen?.match.confidence ?? 0,
      acceptConfidence: ACCEPT_CONFIDENCE,
    });
    return { best, quality, quads, retried, passes };
  } finally {
    rgb.delete();
  }
}

/**
 * The finder's quadrilaterals with their sides refined at full resolution, then the quadrilaterals
 * nested inside them (a card in its sleeve, a card's frame inside its border); the whole frame last.
 */
function candidateQuads(grey: Grey, found: QuadCandidate[]): QuadCandidate[] {
  const refined = found.map((c) => (c.found === 'frame' ? c : { ...c, quad: refineQuad(grey, c.quad) ?? c.quad }));
  const outlines = refined.filter((c) => c.found !== 'frame');
  const nested = outlines.flatMap((c) => {
    const quad = innerQuad(grey, c.quad);
    return quad ? [{ ...c, quad }] : [];
  });
  return [...outlines, ...nested, ...refined.filter((c) => c.found === 'frame')];
}

/** The photo in grey, lightly smoothed (JPEG blocks and sensor noise make false steps). */
function greyOf(cv: Cv, rgb: Mat): Grey {
  return withMats((keep) => {
    const grey = keep(new cv.Mat());
    cv.cvtColor(rgb, grey, cv.COLOR_RGB2GRAY);
    cv.GaussianBlur(grey, grey, new cv.Size(3, 3), 0);
    return { data: Uint8Array.from(grey.data), width: grey.cols, height: grey.rows };
  });
}

/** Whether the quadrilateral's top and bottom sides (clockwise from its top-left) are its short ones. */
function isUpright(q: Quad): boolean {
  const across = Math.hypot(q[1].x - q[0].x, q[1].y - q[0].y) + Math.hypot(q[2].x - q[3].x, q[2].y - q[3].y);
  const down = Math.hypot(q[3].x - q[0].x, q[3].y - q[0].y) + Math.hypot(q[2].x - q[1].x, q[2].y - q[1].y);
  return across <= down;
}

/** A canonical RGB card turned by 180°: its pixels in reverse order. */
function halfTurn(rgb: Uint8Array): Uint8Array {
  const out = new Uint8Array(rgb.length);
  for (let i = 0, j = rgb.length - 3; i < rgb.length; i += 3, j -= 3) {
    out[j] = rgb[i]!;
    out[j + 1] = rgb[i + 1]!;
    out[j + 2] = rgb[i + 2]!;
  }
  return out;
}
