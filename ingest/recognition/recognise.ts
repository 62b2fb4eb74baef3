// Recognition of one photo: the card's quadrilateral, cut out in perspective, matched against the
// index; quadrilaterals best first at the quarter turns that stand them up until one match is sure,
// then the unsure cuts' sides moved onto the straight edges beside them.
import { ACCEPT_CONFIDENCE, type MatchResult, type Ranked, type RecognitionIndex } from './matcher.js';
import type { Cv, Mat } from './opencv.js';
import { withMats } from './opencv.js';
import { PhotoCuts, runPass, type PassOutcome } from './pass.js';
import { Cancelled, type PhotoPasses, type RecognitionThreads } from './passWorkers.js';
import { innerQuad, refineQuad, sideShifts, type Grey } from './refine.js';
import {
  CardFinder,
  centrePatch,
  insideQuad,
  quadArea,
  quadAspect,
  type Photo,
  type Point,
  type Quad,
  type QuadCandidate,
  type Rotation,
} from './photo.js';
import { captureQuality, screenPeakRatio, sharpnessOf, type CaptureQuality } from './quality.js';

/** The turns that stand a quadrilateral up, in the spec's retry order (−90, 180, +90) after 0. */
const UPRIGHT_TURNS: Rotation[] = [0, 180];
const LYING_TURNS: Rotation[] = [-90, 90];
/**
 * Side shifts start from the best pass of this many quadrilaterals by confidence, and from this
 * many more of the line stage's in the finder's order (at both turns), for at most SHIFT_ROUNDS
 * rounds each.
 */
const SHIFT_STARTS = 3;
const SHIFT_LINE_STARTS = 3;
const SHIFT_ROUNDS = 2;
/**
 * Side-shift passes a photo may take in all. The photos still unsure after every quadrilateral
 * (~15 %) took up to 165 and held the p99. At 96 no tuning photo was lost; at 64 one (206, sure
 * only at its 94th).
 */
const SHIFT_PASSES = 96;
/**
 * The side shifts stop once the best pass is at least STALL_CONFIDENCE sure and the last
 * STALL_PASSES shift passes found none surer: the photos never sure took all 96 passes, most with
 * their answer found in the first 16 (on 300 tuning and 300 old photos, stopping so changed no
 * answer and took one confidence from 0.909 to 0.898; at 0.6 and 16 passes four fell below 0.9).
 */
const STALL_CONFIDENCE = 0.5;
const STALL_PASSES = 32;
/** The contrast-stretched search's outlines tried, and its line quadrilaterals side shifts start from. */
const STRETCHED_OUTLINES = 2;
const STRETCHED_LINE_STARTS = 2;
/** A centred quadrilateral within this factor of a sure off-centre cut's area keeps the search going (item 7). */
const RIVAL_AREA = 2;
/** Candidates returned: the chosen pass's card first, then the closest cards of every pass. */
const CANDIDATES = 5;

/** A pass as the search keeps it: which cut, at which turn, and its match. */
export type PassResult = { candidate: QuadCandidate; rotation: Rotation; match: MatchResult };
/** The surest pass so far, with the cut it matched and that cut's blown-out share. */
type BestPass = PassResult & Pick<PassOutcome, 'card' | 'highlight'>;
/** A card the photo may show, with the turn of the cut it was matched in. */
export type Candidate = Ranked & { rotation: Rotation };

export type PhotoRecognition = {
  /** The surest pass, with the cut it matched. */
  best: BestPass | null;
  /** The best pass's card, then the other cards closest to any pass (see pooledCandidates). */
  candidates: Candidate[];
  quality: CaptureQuality;
  /** Every quadrilateral tried, in the order tried (the whole frame last). */
  quads: QuadCandidate[];
  retried: boolean;
  passes: number;
  /** Milliseconds spent in each stage of the search, and the passes each ran (for profiling). */
  stages: StageTime[];
};

/**
 * One stage of the search: how long it took (the finder's work and its passes), the process's CPU
 * time meanwhile (this thread's and the recognition threads'), how long it waited on its passes,
 * and how many passes it ran.
 */
export type StageTime = {
  stage: 'finder' | 'outlines' | 'lines' | 'stretched' | 'frame' | 'shifts' | 'quality';
  ms: number;
  cpuMs: number;
  passMs: number;
  passes: number;
};

/**
 * Recognises a photo. The passes run on `threads` when given (several at once, the first sure one
 * in the search order wins, so the answer is the one a single thread would give), else here.
 */
export async function recognisePhoto(
  cv: Cv,
  index: RecognitionIndex,
  photo: Photo,
  threads?: RecognitionThreads,
): Promise<PhotoRecognition> {
  const rgb = cv.matFromArray(photo.height, photo.width, cv.CV_8UC3, photo.rgb);
  const local = new PhotoCuts(cv, rgb);
  const here = inline(cv, index, local);
  const runner: PhotoPasses = threads?.usable ? orHere(threads.photo(photo, index), here) : here;
  try {
    const stageTimes: StageTime[] = [];
    let clock = performance.now();
    let cpu = process.cpuUsage();
    let passMs = 0;
    let passesBefore = 0;
    const timed = (stage: StageTime['stage']) => {
      const now = performance.now();
      const used = process.cpuUsage(cpu);
      stageTimes.push({ stage, ms: now - clock, cpuMs: (used.user + used.system) / 1000, passMs, passes: passes.length - passesBefore });
      clock = now;
      cpu = process.cpuUsage();
      passMs = 0;
      passesBefore = passes.length;
    };
    // inOrder with the time it waits on passes counted towards the stage's passMs.
    const passesOf = async <S extends Step>(steps: S[], take: (step: S, outcome: PassOutcome) => boolean) => {
      const started = performance.now();
      try {
        return await inOrder(runner, steps, take);
      } finally {
        passMs += performance.now() - started;
      }
    };
    const grey = greyOf(cv, rgb);
    const quads: QuadCandidate[] = [];
    // Every quadrilateral the finder's stages gave so far, tried or not.
    const found: QuadCandidate[] = [];
    // Whether the finder's line stage has run (its quadrilaterals are in `found`).
    let linesLooked = false;
    let best: BestPass | null = null;
    const passes: PassResult[] = [];
    // The best pass of each quadrilateral found (where side shifts start from).
    const bestOf = new Map<QuadCandidate, PassResult>();
    // The line stage's quadrilaterals as the finder ranked them (its side shifts' second starts).
    const lineQuads: QuadCandidate[] = [];
    const sure = (r: PassResult | null) => r !== null && r.match.confidence >= ACCEPT_CONFIDENCE;
    // The card photographed is framed near the middle: a sure cut around the photo's centre beats a
    // sure one beside it (a binder pocket's neighbour fully in frame is often matched sure first).
    const middle = { x: photo.width / 2, y: photo.height / 2 };
    const centred = (r: PassResult) => insideQuad(middle, r.candidate.quad);
    // A sure cut beside the centre ends the search once the line stage has looked too (its first
    // quadrilateral is often the centred card the outlines missed), unless the finder ranked a
    // quadrilateral around the centre above it (the card it missed) or found one around the centre
    // about as large (a binder pocket's or a pile's card, in the middle): a card photographed off the
    // middle on a plain table is its first quadrilateral, and answered once the outlines' other
    // quadrilaterals and the line stage's first have been tried (a sure cut is rarely off the middle).
    const centreOf = (q: Quad): Point => ({ x: (q[0].x + q[1].x + q[2].x + q[3].x) / 4, y: (q[0].y + q[1].y + q[2].y + q[3].y) / 4 });
    // A quadrilateral around the centre within RIVAL_AREA of a sure cut's area and apart from it:
    // another card, in the middle. One around the sure cut's own centre, or with its centre inside the
    // sure cut, is that card's holder, its frame or lines on its own edges.
    const rivalOf = (r: PassResult) => (q: QuadCandidate) =>
      q.found !== 'frame' &&
      insideQuad(middle, q.quad) &&
      !insideQuad(centreOf(r.candidate.quad), q.quad) &&
      !insideQuad(centreOf(q.quad), r.candidate.quad) &&
      Math.abs(Math.log(quadArea(q.quad) / quadArea(r.candidate.quad))) <= Math.log(RIVAL_AREA);
    // The quadrilaterals tried before the cut's own; a cut not among them (none is today: shifted cuts
    // are judged by `settled`) counts every one tried, which only ever keeps the search going.
    const rankedAbove = (r: PassResult) => {
      const at = quads.indexOf(r.candidate);
      return at < 0 ? quads : quads.slice(0, at);
    };
    const final = (r: PassResult) =>
      sure(r) &&
      (centred(r) ||
        (linesLooked && !(rankedAbove(r).some((q) => q.found !== 'frame' && insideQuad(middle, q.quad)) || found.some(rivalOf(r)))));
    const better = (a: PassResult, b: PassResult | null | undefined) =>
      !b ||
      (sure(a) && sure(b) && centred(a) !== centred(b)
        ? centred(a)
        : a.match.confidence > b.match.confidence ||
          (a.match.confidence === b.match.confidence && a.match.separation > b.match.separation));
    const take = (step: Step, { match, card, highlight }: PassOutcome): PassResult => {
      const pass = { ...step, match };
      passes.push(pass);
      if (better(pass, best)) best = { ...pass, card, highlight };
      if (better(pass, bestOf.get(step.candidate))) bestOf.set(step.candidate, pass);
      return pass;
    };
    // Quadrilaterals best first, each at the quarter turns that stand it up (a card is taller than
    // wide): an upright one at 0 then 180, one lying on its side at −90 then +90. The first sure
    // answer around the photo's centre ends the search, so most photos are answered by their first
    // or second pass; the finder's costlier stage (lines) runs only when its outlines left no such
    // answer, the whole frame last.
    const finder = new CardFinder(cv, photo, rgb);
    timed('finder');
    let stretched: CardFinder | undefined;
    try {
      const lines = (from: CardFinder, starts: number, places?: number, completedPlaces?: number) => {
        const found = candidateQuads(grey, from.lines(places, completedPlaces));
        lineQuads.push(...found.slice(0, starts));
        return found;
      };
      const stages: [StageTime['stage'], () => QuadCandidate[]][] = [
        ['outlines', () => candidateQuads(grey, finder.outlines())],
        ['lines', () => lines(finder, SHIFT_LINE_STARTS)],
        // Still unsure: the search again on the photo with its contrast stretched, where a dim
        // card's or a toploader's edges clear Canny's thresholds (quadrilaterals not tried yet only).
        [
          'stretched',
          () => {
            stretched = new CardFinder(cv, photo, rgb, { stretch: true, after: finder });
            return [...candidateQuads(grey, stretched.outlines(STRETCHED_OUTLINES)), ...lines(stretched, STRETCHED_LINE_STARTS, 3, 1)];
          },
        ],
        ['frame', () => [finder.frame()]],
      ];
      for (const [name, stage] of stages) {
        const got = stage();
        found.push(...got);
        if (name === 'lines') linesLooked = true;
        const steps = got.flatMap((candidate) =>
          (isUpright(candidate.quad) ? UPRIGHT_TURNS : LYING_TURNS).map((rotation) => ({ candidate, rotation })),
        );
        const done = await passesOf(steps, (step, outcome) => {
          if (quads.at(-1) !== step.candidate) quads.push(step.candidate);
          take(step, outcome);
          return best !== null && final(best);
        });
        timed(name);
        if (done || (best !== null && final(best))) break;
      }
    } finally {
      finder.delete();
      stretched?.delete();
    }
    const retried = passes.some((p) => p.rotation !== 0);
    // Still unsure: the best cuts of the most promising quadrilaterals have their sides moved, one at
    // a time, onto the other straight edges beside them, kept while the match grows surer (a side
    // on the card's inner frame, its sleeve or clutter).
    // A sure cut beside the centre that the search went on past (see final) is likely a neighbour's,
    // matched sure while the centred card's cuts were a side off (a thumb over it, a pocket's edge):
    // those are shifted too, and a sure one wins; STALL_PASSES bounds that search, the best already sure.
    const neighbourSure = best !== null && sure(best) && !final(best);
    // A side-shifted cut beside the centre, sure, settles it only when no card-sized quadrilateral lies around the centre.
    const settled = () => sure(best) && (centred(best!) || (!neighbourSure && !found.some(rivalOf(best!))));
    if (!settled()) {
      const startable = (p: PassResult) => p.candidate.found !== 'frame' && (!neighbourSure || centred(p));
      // Most unsure cuts match at a confidence near 0, which says little about which one is near
      // the card: the finder's own ranking of the line stages' quadrilaterals picks more starts (a
      // line quadrilateral with three sides on the card and one on its frame or a pocket's edge),
      // each at both turns, since a cut that far off matches nothing at either.
      const surest = [...bestOf.values()]
        .filter(startable)
        .sort((p, q) => q.match.confidence - p.match.confidence || q.match.separation - p.match.separation)
        .slice(0, SHIFT_STARTS);
      const ranked = lineQuads.flatMap((c) => passes.filter((p) => p.candidate === c && startable(p) && !surest.includes(p)));
      // Taken in turn: the surest start often ends the search at once; when it does not, the finder's.
      const starts = [...surest, ...ranked]
        .map((p, k) => ({ p, order: k < surest.length ? 2 * k : 2 * (k - surest.length) + 1 }))
        .sort((a, b) => a.order - b.order)
        .map(({ p }) => p);
      // A quadrilateral started from at both turns is shifted once: each shifted cut is tried at
      // both turns one after the other (one warp on one thread: its half turn is free), up to
      // SHIFT_PASSES in all.
      const turnsOf = new Map<QuadCandidate, PassResult[]>();
      for (const p of starts) turnsOf.set(p.candidate, [...(turnsOf.get(p.candidate) ?? []), p]);
      let budget = SHIFT_PASSES;
      // Shift passes taken, and how many when the best pass last changed.
      let shifted = 0;
      let lastGain = 0;
      const stalled = () => best !== null && best.match.confidence >= STALL_CONFIDENCE && shifted - lastGain >= STALL_PASSES;
      for (const first of turnsOf.values()) {
        let from: PassResult[] = first;
        for (let round = 0; round < SHIFT_ROUNDS && budget > 0 && !settled() && !stalled(); round++) {
          let improved: PassResult | null = null;
          const steps = sideShifts(grey, from[0]!.candidate.quad).flatMap((quad) =>
            from.map((start) => ({ candidate: { ...start.candidate, quad }, rotation: start.rotation, start })),
          );
          await passesOf(steps.slice(0, budget), (step, outcome) => {
            budget--;
            const before = best;
            const pass = take(step, outcome);
            shifted++;
            if (best !== before) lastGain = shifted;
            if (pass.match.confidence > Math.max(step.start.match.confidence, improved?.match.confidence ?? 0)) improved = pass;
            return settled() || stalled();
          });
          if (!improved) break;
          from = [improved];
        }
      }
    }
    if (passes.length > passesBefore) timed('shifts');
    const chosen = best as BestPass | null;
    // A recognition thread leaves out an unsure pass's cut: cut again here (the same pixels).
    const card = chosen ? (chosen.card ??= local.cut({ quad: chosen.candidate.quad, rotation: chosen.rotation })) : null;
    const quality = captureQuality({
      sharpness: card ? sharpnessOf(cv, card) : 0,
      glare: chosen ? Math.max(0, chosen.highlight - (chosen.match.ranked[0]?.highlight ?? 0)) : 0,
      screen: chosen ? screenPeakRatio(cv, centrePatch(cv, rgb, chosen.candidate.quad)) : 0,
      cardPixels: chosen ? quadAspect(chosen.candidate.quad).long * photo.scale : 0,
      confidence: chosen?.match.confidence ?? 0,
      acceptConfidence: ACCEPT_CONFIDENCE,
    });
    timed('quality');
    return {
      best: chosen,
      candidates: pooledCandidates(chosen, passes),
      quality,
      quads,
      retried,
      passes: passes.length,
      stages: stageTimes,
    };
  } finally {
    runner.cancel();
    runner.release();
    local.delete();
    rgb.delete();
  }
}

type Step = { candidate: QuadCandidate; rotation: Rotation };

/**
 * Runs the steps' passes, as many at once as the runner wants, and hands their outcomes to `take`
 * in the steps' order until it says the search is done (true). Passes started beyond that point
 * are dropped unseen, so the outcome is the one running them one by one would give.
 */
async function inOrder<S extends Step>(
  runner: PhotoPasses,
  steps: S[],
  take: (step: S, outcome: PassOutcome) => boolean,
): Promise<boolean> {
  const running: Promise<PassOutcome>[] = [];
  let started = 0;
  try {
    for (let next = 0; next < steps.length; next++) {
      while (started < steps.length && runner.wants(running.length)) {
        const step = steps[started++]!;
        running.push(runner.run({ quad: step.candidate.quad, rotation: step.rotation }));
      }
      if (take(steps[next]!, await running.shift()!)) return true;
    }
    return false;
  } finally {
    runner.cancel();
    // Dropped or still running: their outcomes (or Cancelled) are not wanted.
    for (const p of running) p.catch(() => undefined);
  }
}

/** The threads' passes, each run here instead should its thread fail (it is replaced meanwhile). */
function orHere(threaded: PhotoPasses, here: PhotoPasses): PhotoPasses {
  return {
    ...threaded,
    run: (task) => threaded.run(task).catch((error: unknown) => (error instanceof Cancelled ? Promise.reject(error) : here.run(task))),
  };
}

/** Passes run on this thread, one at a time, on the photo's own cuts. */
function inline(cv: Cv, index: RecognitionIndex, cuts: PhotoCuts): PhotoPasses {
  return {
    run: async (task) => runPass(cv, index, cuts, task),
    wants: (outstanding) => outstanding === 0,
    cancel: () => undefined,
    release: () => undefined,
  };
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
