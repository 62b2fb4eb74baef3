// Recognition of one photo: the card's quadrilateral, cut out in perspective, matched against the
// index; the three other quarter turns tried when the first pass is unsure.
import { cardFeatures, highlightShare } from './features.js';
import type { MatchResult, RecognitionIndex } from './matcher.js';
import type { Cv } from './opencv.js';
import { centrePatch, cutCard, findCardQuads, quadAspect, type Photo, type Quad, type QuadCandidate, type Rotation } from './photo.js';
import { captureQuality, screenPeakRatio, sharpnessOf, type CaptureQuality } from './quality.js';

/** A first pass at least this confident, and this far ahead of the runner-up, is not retried. */
export const ACCEPT_CONFIDENCE = 0.9;
const RETRY_ROTATIONS: Rotation[] = [-90, 180, 90];

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
    const quads = findCardQuads(cv, photo, rgb);
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
    const tryPass = (candidate: QuadCandidate, rotation: Rotation) => {
      const card = cutAt(candidate, rotation);
      const match = index.match(cardFeatures(cv, card));
      passes++;
      if (
        !best ||
        match.confidence > best.match.confidence ||
        (match.confidence === best.match.confidence && match.separation > best.match.separation)
      )
        best = { candidate, rotation, match, card };
    };
    // A card stands taller than wide: a quadrilateral lying on its side is tried only at the
    // quarter turns that stand it up, one upright at 0 and 180 only.
    const upright = quads.map((q) => isUpright(q.quad));
    quads.forEach((q, i) => upright[i] && tryPass(q, 0));
    const sure = (r: PassResult | null) => r !== null && r.match.confidence >= ACCEPT_CONFIDENCE;
    const retried = !sure(best);
    if (retried) for (const rotation of RETRY_ROTATIONS) quads.forEach((q, i) => upright[i] === (rotation === 180) && tryPass(q, rotation));
    const found = best as PassResult | null;
    const quality = captureQuality({
      sharpness: found ? sharpnessOf(cv, found.card) : 0,
      glare: found ? Math.max(0, highlightShare(found.card) - (found.match.ranked[0]?.highlight ?? 0)) : 0,
      screen: found ? screenPeakRatio(cv, centrePatch(cv, rgb, found.candidate.quad)) : 0,
      cardPixels: found ? quadAspect(found.candidate.quad).long * photo.scale : 0,
      confidence: found?.match.confidence ?? 0,
      acceptConfidence: ACCEPT_CONFIDENCE,
    });
    return { best, quality, quads, retried, passes };
  } finally {
    rgb.delete();
  }
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
