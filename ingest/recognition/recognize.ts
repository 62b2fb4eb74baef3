// Recognition of one photo: the card's quadrilateral, cut out in perspective, matched against the
// index; quadrilaterals best first at the quarter turns that stand them up until one match is sure,
// then the unsure cuts' sides moved onto the straight edges beside them.
import { cardFeatures, highlightShare } from './features.js';
import type { MatchResult, Ranked, RecognitionIndex } from './matcher.js';
import type { Cv, Mat } from './opencv.js';
import { withMats } from './opencv.js';
import { innerQuad, refineQuad, sideShifts, type Grey } from './refine.js';
import {
  CardFinder,
  centrePatch,
  cutCard,
  halfRaster,
  quadAspect,
  type Photo,
  type Quad,
  type QuadCandidate,
  type Rotation,
} from './photo.js';
import { captureQuality, screenPeakRatio, sharpnessOf, type CaptureQuality } from './quality.js';

/** A match at least this confident ends the search (and the rotation fallback). */
export const ACCEPT_CONFIDENCE = 0.9;
/** The turns that stand a quadrilateral up, in the spec's retry order (−90, 180, +90) after 0. */
const UPRIGHT_TURNS: Rotation[] = [0, 180];
const LYING_TURNS: Rotation[] = [-90, 90];
/** Side shifts start from the best pass of this many quadrilaterals, for at most this many rounds each. */
const SHIFT_STARTS = 3;
const SHIFT_ROUNDS = 2;
/** Candidates returned: the chosen pass's card first, then the closest cards of every pass. */
const CANDIDATES = 5;

export type PassResult = { candidate: QuadCandidate; rotation: Rotation; match: MatchResult; card: Uint8Array };
/** A card the photo may show, with the turn of the cut it was matched in. */
export type Candidate = Ranked & { rotation: Rotation };

export type PhotoRecognition = {
  best: PassResult | null;
  /** The best pass's card, then the other cards closest to any pass (see pooledCandidates). */
  candidates: Candidate[];
  quality: CaptureQuality;
  /** Every quadrilateral tried, in the order tried (the whole frame last). */
  quads: QuadCandidate[];
  retried: boolean;
  passes: number;
};

export function recognisePhoto(cv: Cv, index: RecognitionIndex, photo: Photo): PhotoRecognition {
  const rgb = cv.matFromArray(photo.height, photo.width, cv.CV_8UC3, photo.rgb);
  // The photo at half size, made when a large card is first cut (see cutCard).
  let half: Mat | undefined;
  try {
    const grey = greyOf(cv, rgb);
    const quads: QuadCandidate[] = [];
    let best: PassResult | null = null;
    const all: PassResult[] = [];
    // Each quadrilateral is warped once, standing up (0 or 90); its half turn (180 or −90) is that
    // cut's pixels in reverse order, which costs nothing next to a warp.
    const cuts = new Map<QuadCandidate, Uint8Array>();
    const halfOfRgb = () => (half ??= halfRaster(cv, rgb));
    const cutAt = (candidate: QuadCandidate, rotation: Rotation): Uint8Array => {
      const standing: Rotation = rotation === 0 || rotation === 180 ? 0 : 90;
      let cut = cuts.get(candidate);
      if (!cut) cuts.set(candidate, (cut = cutCard(cv, rgb, candidate.quad, standing, halfOfRgb)));
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
      const pass = { candidate, rotation, match, card };
      all.push(pass);
      if (better(pass, best)) best = pass;
      if (better(pass, bestOf.get(candidate))) bestOf.set(candidate, pass);
      return pass;
    };
    // Quadrilaterals best first, each at the quarter turns that stand it up (a card is taller than
    // wide): an upright one at 0 then 180, one lying on its side at −90 then +90. The first sure
    // answer ends the search, so most photos are answered by their first or second pass; the
    // finder's costlier stage (lines) runs only when its outlines left the match unsure, the whole
    // frame last.
    const sure = (r: PassResult | null) => r !== null && r.match.confidence >= ACCEPT_CONFIDENCE;
    const finder = new CardFinder(cv, photo, rgb);
    try {
      const stages = [() => candidateQuads(grey, finder.outlines()), () => candidateQuads(grey, finder.lines()), () => [finder.frame()]];
      search: for (const stage of stages)
        for (const q of stage()) {
          quads.push(q);
          for (const rotation of isUpright(q.quad) ? UPRIGHT_TURNS : LYING_TURNS) {
            tryPass(q, rotation);
            if (sure(best)) break search;
          }
        }
    } finally {
      finder.delete();
    }
    const retried = all.some((p) => p.rotation !== 0);
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
            if (sure(best)) break;
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
    return { best, candidates: pooledCandidates(chosen, all), quality, quads, retried, passes: all.length };
  } finally {
    rgb.delete();
    half?.delete();
  }
}

/**
 * The chosen pass's card first (the surest), then the other cards by their closest distance in any
 * pass: when the chosen cut is wrong (clutter taken for the card), another cut's card is the likelier
 * runner-up than the wrong cut's own near misses.
 */
function pooledCandidates(chosen: PassResult | null, passes: PassResult[]): Candidate[] {
  const first = chosen?.match.ranked[0];
  if (!chosen || !first) return [];
  const closest = new Map<number, Candidate>();
  for (const pass of passes)
    for (const r of pass.match.ranked) {
      const seen = closest.get(r.cardId);
      if (r.cardId !== first.cardId && (!seen || r.distance < seen.distance)) closest.set(r.cardId, { ...r, rotation: pass.rotation });
    }
  const others = [...closest.values()].sort((a, b) => a.distance - b.distance);
  return [{ ...first, rotation: chosen.rotation }, ...others].slice(0, CANDIDATES);
}

/**
 * The finder's quadrilaterals with their sides refined at full resolution, then the quadrilaterals
 * nested inside them (a card in its sleeve, a card's frame inside its border).
 */
function candidateQuads(grey: Grey, found: QuadCandidate[]): QuadCandidate[] {
  const refined = found.map((c) => ({ ...c, quad: refineQuad(grey, c.quad) ?? c.quad }));
  const nested = refined.flatMap((c) => {
    const quad = innerQuad(grey, c.quad);
    return quad ? [{ ...c, quad }] : [];
  });
  return [...refined, ...nested];
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
