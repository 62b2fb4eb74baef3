// One recognition pass: a quadrilateral of a photo cut out at a quarter turn, its features and
// their match in the index. The same code runs on the request's thread or in a worker thread
// (passWorkers.ts), each with its own PhotoCuts of the photo.
import { cardFeatures } from './features.js';
import type { MatchResult, RecognitionIndex } from './matcher.js';
import type { Cv, Mat } from './opencv.js';
import { cutCard, halfRaster, type Quad, type Rotation } from './photo.js';

/** What a pass is asked: a quadrilateral of the photo and the turn to cut it at. */
export type PassTask = { quad: Quad; rotation: Rotation };
/**
 * What it answers; `card` is the canonical cut (CARD_WIDTH × CARD_HEIGHT RGB) that was matched and
 * `highlight` its share blown out to white (the capture-quality glare signal's own measure). A
 * recognition thread leaves out the cut of an unsure pass (see passWorker.ts).
 */
export type PassOutcome = { match: MatchResult; card?: Uint8Array; highlight: number };

/** A photo's working raster in OpenCV, and its last cut. */
export class PhotoCuts {
  readonly #rgb: Mat;
  readonly #ownsRgb: boolean;
  // The photo at half size, made when a large card is first cut (see cutCard).
  #half: Mat | undefined;
  // Each quadrilateral is warped standing up (0 or 90); its half turn (180 or −90) is that cut's
  // pixels in reverse order, which costs nothing next to a warp. The search tries a quadrilateral's
  // two turns one after the other, so only the last cut is kept (a photo's cuts are 242 KB each).
  #last: { key: string; cut: Uint8Array } | undefined;
  #deleted = false;

  constructor(
    private readonly cv: Cv,
    rgb: Mat | { rgb: Uint8Array; width: number; height: number },
  ) {
    this.#ownsRgb = 'rgb' in rgb;
    this.#rgb = 'rgb' in rgb ? cv.matFromArray(rgb.height, rgb.width, cv.CV_8UC3, rgb.rgb) : rgb;
  }

  cut({ quad, rotation }: PassTask): Uint8Array {
    // A pass that outlived its photo (a thread's pass rerun here after the answer was given).
    if (this.#deleted) throw new Error('the photo was released');
    const standing: Rotation = rotation === 0 || rotation === 180 ? 0 : 90;
    const key = `${standing}:${quad.map((p) => `${p.x},${p.y}`).join(';')}`;
    if (this.#last?.key !== key)
      this.#last = { key, cut: cutCard(this.cv, this.#rgb, quad, standing, () => (this.#half ??= halfRaster(this.cv, this.#rgb))) };
    return rotation === standing ? this.#last.cut : halfTurn(this.#last.cut);
  }

  /** Frees the rasters made here (a Mat it was given stays its owner's to free). */
  delete(): void {
    if (this.#deleted) return;
    this.#deleted = true;
    this.#half?.delete();
    if (this.#ownsRgb) this.#rgb.delete();
    this.#last = undefined;
  }
}

export function runPass(cv: Cv, index: RecognitionIndex, cuts: PhotoCuts, task: PassTask): PassOutcome {
  const card = cuts.cut(task);
  const features = cardFeatures(cv, card, { photo: true });
  return { match: index.match(features), card, highlight: features.highlight };
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
