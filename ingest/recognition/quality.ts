// How good a capture is, from signals measured on the card as it was cut from the photo. Every
// signal is returned with its value and threshold, so a client can say why a scan was doubted.
import { CARD_HEIGHT, CARD_WIDTH } from './features.js';
import { PATCH_SIDE } from './photo.js';
import type { Cv } from './opencv.js';
import { withMats } from './opencv.js';

export type Verdict = 'likely_real' | 'suspicious' | 'likely_fake' | 'needs_manual_review';

export type Signal = { value: number; threshold: number; flagged: boolean };

export type Reason = 'card_not_found' | 'low_resolution' | 'screen_photo' | 'blurred' | 'glare' | 'uncertain_match';

export type CaptureQuality = {
  verdict: Verdict;
  reasons: Reason[];
  signals: {
    /** Variance of the Laplacian of the grey card: low is blurred. Flagged below the threshold. */
    sharpness: Signal;
    /** Share of the card blown out to white beyond what the matched card prints white. */
    glare: Signal;
    /** Strongest isolated peak of the card's spectrum against the spectrum's median: a screen's pixel grid. */
    screen: Signal;
    /** The card's long side in the photo, in pixels. Flagged below the threshold. */
    resolution: Signal;
    /** The match's confidence. Flagged below the threshold (card not found or not in the index). */
    match: Signal;
  };
};

/** Thresholds, measured on distorted reference scans (README "Card recognition"). */
export const QUALITY_THRESHOLDS = {
  sharpness: 60,
  glare: 0.035,
  screen: 2.7,
  resolution: 200,
  /** Below this confidence the card counts as not found. */
  match: 0.5,
} as const;

/** Variance of the Laplacian of the canonical card's grey picture. */
export function sharpnessOf(cv: Cv, rgb: Uint8Array): number {
  return withMats((keep) => {
    const card = keep(cv.matFromArray(CARD_HEIGHT, CARD_WIDTH, cv.CV_8UC3, rgb));
    const grey = keep(new cv.Mat());
    cv.cvtColor(card, grey, cv.COLOR_RGB2GRAY);
    const lap = keep(new cv.Mat());
    cv.Laplacian(grey, lap, cv.CV_32F, 1);
    const mean = keep(new cv.Mat());
    const sd = keep(new cv.Mat());
    cv.meanStdDev(lap, mean, sd);
    return sd.data64F[0]! ** 2;
  });
}

/**
 * A screen's pixel grid, sampled by the camera, leaves sharp isolated peaks in the spectrum
 * (moiré); a printed card's spectrum falls off smoothly. Measured on a grey PATCH_SIDE square of
 * the card at the photo's own resolution: the log-magnitude spectrum minus a blurred copy of
 * itself (the smooth fall-off), and the value is the highest remaining peak outside the lowest
 * frequencies, in natural-log units (e^value times the neighbourhood's level).
 */
export function screenPeakRatio(cv: Cv, grey: Uint8Array): number {
  return withMats((keep) => {
    const side = PATCH_SIDE;
    const patch = keep(cv.matFromArray(side, side, cv.CV_8UC1, grey));
    const real = keep(new cv.Mat());
    patch.convertTo(real, cv.CV_32F);
    const planes = keep(new cv.MatVector());
    planes.push_back(real);
    planes.push_back(keep(cv.Mat.zeros(side, side, cv.CV_32F)));
    const complex = keep(new cv.Mat());
    cv.merge(planes, complex);
    cv.dft(complex, complex);
    const parts = keep(new cv.MatVector());
    cv.split(complex, parts);
    const re = keep(parts.get(0));
    const im = keep(parts.get(1));
    const magnitude = keep(new cv.Mat());
    cv.magnitude(re, im, magnitude);
    cv.add(magnitude, keep(new cv.Mat(side, side, cv.CV_32F, new cv.Scalar(1))), magnitude);
    cv.log(magnitude, magnitude);
    const smooth = keep(new cv.Mat());
    cv.blur(magnitude, smooth, new cv.Size(9, 9), new cv.Point(-1, -1), cv.BORDER_REFLECT);
    const m = magnitude.data32F;
    const b = smooth.data32F;
    let peak = 0;
    const half = side / 2;
    for (let v = 0; v < side; v++)
      for (let u = 0; u < side; u++) {
        const fu = u <= half ? u : side - u;
        const fv = v <= half ? v : side - v;
        if (Math.hypot(fu, fv) < side / 8) continue;
        peak = Math.max(peak, m[v * side + u]! - b[v * side + u]!);
      }
    return peak;
  });
}

const signal = (value: number, threshold: number, flaggedWhenBelow: boolean): Signal => ({
  value: Math.round(value * 1000) / 1000,
  threshold,
  flagged: flaggedWhenBelow ? value < threshold : value > threshold,
});

/**
 * The verdict from the signals: not found, not confident or too small → needs_manual_review (a
 * person should look); a screen → likely_fake (a picture of a picture); blur, glare or a match
 * short of ACCEPT → suspicious; else likely_real.
 */
export function captureQuality(input: {
  sharpness: number;
  glare: number;
  screen: number;
  cardPixels: number;
  confidence: number;
  acceptConfidence: number;
}): CaptureQuality {
  const t = QUALITY_THRESHOLDS;
  const signals = {
    sharpness: signal(input.sharpness, t.sharpness, true),
    glare: signal(input.glare, t.glare, false),
    screen: signal(input.screen, t.screen, false),
    resolution: signal(input.cardPixels, t.resolution, true),
    match: signal(input.confidence, t.match, true),
  };
  const reasons: Reason[] = [];
  if (signals.match.flagged) reasons.push('card_not_found');
  if (signals.resolution.flagged) reasons.push('low_resolution');
  if (signals.screen.flagged) reasons.push('screen_photo');
  if (signals.sharpness.flagged) reasons.push('blurred');
  if (signals.glare.flagged) reasons.push('glare');
  if (!signals.match.flagged && input.confidence < input.acceptConfidence) reasons.push('uncertain_match');
  const verdict: Verdict =
    signals.match.flagged || signals.resolution.flagged
      ? 'needs_manual_review'
      : signals.screen.flagged
        ? 'likely_fake'
        : reasons.length > 0
          ? 'suspicious'
          : 'likely_real';
  return { verdict, reasons, signals };
}
