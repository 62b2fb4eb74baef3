// What a card picture is reduced to for matching, computed from the card cut to its edges and
// scaled to CARD_WIDTH × CARD_HEIGHT. Reference scans and photos go through this same function.
import type { Cv, Mat } from './opencv.js';
import { withMats } from './opencv.js';

/** The canonical card, 63 × 88 mm at 240 × 336 px. */
export const CARD_WIDTH = 240;
export const CARD_HEIGHT = 336;

/** The art box of a card, as fractions of the card (Pokémon's and Lorcana's frames both enclose it). */
const ART_BOX = { left: 0.08, top: 0.1, right: 0.92, bottom: 0.5 } as const;

export const HASH_WORDS = 8; // 256 bits
const HASH_SIDE = 16; // the 16 × 16 lowest DCT frequencies
const DCT_INPUT = 64;
export const COLOUR_CELLS = { cols: 4, rows: 6 } as const;
export const COLOUR_LENGTH = COLOUR_CELLS.cols * COLOUR_CELLS.rows * 3;
export const THUMB = { width: 24, height: 34 } as const;
export const THUMB_LENGTH = THUMB.width * THUMB.height;

export type CardFeatures = {
  /** 256-bit perceptual hash (DCT sign pattern) of the whole card. */
  cardHash: Uint32Array;
  /** 256-bit perceptual hash of the art box. */
  artHash: Uint32Array;
  /** Mean colour of a 4 × 6 grid, each channel standardised over the card (so lighting shifts cancel). */
  colour: Float32Array;
  /** A 24 × 34 grey thumbnail, standardised to mean 0 and norm 1: compared by correlation. */
  thumb: Float32Array;
  /** Share of the card blown out to white (glare is a photo's share beyond its card's). */
  highlight: number;
};

/** A pixel counts as blown out when its darkest channel is at least this bright. */
const HIGHLIGHT_LEVEL = 245;

// DCT-II basis rows for the first HASH_SIDE frequencies of a DCT_INPUT-long signal.
const DCT_BASIS = (() => {
  const m = new Float64Array(HASH_SIDE * DCT_INPUT);
  for (let k = 0; k < HASH_SIDE; k++)
    for (let n = 0; n < DCT_INPUT; n++) m[k * DCT_INPUT + n] = Math.cos((Math.PI * (2 * n + 1) * k) / (2 * DCT_INPUT));
  return m;
})();

/** 256-bit pHash of a grey 64 × 64 square: each low frequency against their median. */
function perceptualHash(square: Float32Array): Uint32Array {
  // Rows first (64 × 16), then columns (16 × 16).
  const rows = new Float64Array(DCT_INPUT * HASH_SIDE);
  for (let y = 0; y < DCT_INPUT; y++)
    for (let k = 0; k < HASH_SIDE; k++) {
      let s = 0;
      for (let x = 0; x < DCT_INPUT; x++) s += square[y * DCT_INPUT + x]! * DCT_BASIS[k * DCT_INPUT + x]!;
      rows[y * HASH_SIDE + k] = s;
    }
  const coefficients = new Float64Array(HASH_SIDE * HASH_SIDE);
  for (let k = 0; k < HASH_SIDE; k++)
    for (let j = 0; j < HASH_SIDE; j++) {
      let s = 0;
      for (let y = 0; y < DCT_INPUT; y++) s += rows[y * HASH_SIDE + j]! * DCT_BASIS[k * DCT_INPUT + y]!;
      coefficients[k * HASH_SIDE + j] = s;
    }
  // The DC term says only how bright the picture is; it is left out of the median.
  const median = Float64Array.from(coefficients.subarray(1)).sort()[(coefficients.length - 1) >> 1]!;
  const hash = new Uint32Array(HASH_WORDS);
  for (let i = 0; i < coefficients.length; i++) if (coefficients[i]! > median) hash[i >> 5]! |= 1 << (i & 31);
  return hash;
}

/** `v` brought to mean 0 and norm 1 over the cells not `skip`ped; skipped cells become 0. */
function standardise(v: Float32Array, skip: Uint8Array | null = null): Float32Array {
  let mean = 0;
  let kept = 0;
  for (let i = 0; i < v.length; i++)
    if (!skip?.[i]) {
      mean += v[i]!;
      kept++;
    }
  mean /= kept || 1;
  let norm = 0;
  for (let i = 0; i < v.length; i++) {
    v[i] = skip?.[i] ? 0 : v[i]! - mean;
    norm += v[i]! * v[i]!;
  }
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

/** A thumbnail or colour cell counts as glare when at least this share of its pixels is blown out. */
const GLARE_CELL = 0.5;

/**
 * Features of a canonical card given as RGB bytes (CARD_WIDTH × CARD_HEIGHT × 3). For a photo
 * (`photo: true`), thumbnail and colour cells mostly blown out to white are left out (zero after
 * standardising the rest): a glare patch would otherwise outweigh the whole card in a correlation.
 * Reference scans keep every cell, since the photo's cells are what is compared against them.
 */
export function cardFeatures(cv: Cv, rgb: Uint8Array, opts: { photo?: boolean } = {}): CardFeatures {
  return withMats((keep) => {
    const card = keep(cv.matFromArray(CARD_HEIGHT, CARD_WIDTH, cv.CV_8UC3, rgb));
    const grey = keep(new cv.Mat());
    cv.cvtColor(card, grey, cv.COLOR_RGB2GRAY);
    const shrink = (src: Mat, width: number, height: number): Float32Array => {
      const out = keep(new cv.Mat());
      cv.resize(src, out, new cv.Size(width, height), 0, 0, cv.INTER_AREA);
      return Float32Array.from(out.data);
    };
    const art = keep(
      grey.roi(
        new cv.Rect(
          Math.round(ART_BOX.left * CARD_WIDTH),
          Math.round(ART_BOX.top * CARD_HEIGHT),
          Math.round((ART_BOX.right - ART_BOX.left) * CARD_WIDTH),
          Math.round((ART_BOX.bottom - ART_BOX.top) * CARD_HEIGHT),
        ),
      ),
    );
    const cells = keep(new cv.Mat());
    cv.resize(card, cells, new cv.Size(COLOUR_CELLS.cols, COLOUR_CELLS.rows), 0, 0, cv.INTER_AREA);
    let thumbGlare: Uint8Array | null = null;
    let colourGlare: Uint8Array | null = null;
    const blown = blownOut(rgb);
    // Nothing blown out (most photos): nothing to flatten and no glare cell.
    if (opts.photo && blown.count > 0) {
      // The hashes see a glare patch as the card's mean grey: a flat patch moves few low frequencies, a white blob many.
      flattenMasked(grey.data, blown.mask);
      let blownMat: Mat | undefined;
      const glareCells = (width: number, height: number) => {
        // No cell can be half blown out with fewer blown pixels than half the smallest cell: skip the shrink.
        if (blown.count < GLARE_CELL * Math.floor(CARD_WIDTH / width) * Math.floor(CARD_HEIGHT / height)) return null;
        blownMat ??= keep(cv.matFromArray(CARD_HEIGHT, CARD_WIDTH, cv.CV_8U, blown.mask));
        const share = shrink(blownMat, width, height);
        return share.some((v) => v >= 255 * GLARE_CELL) ? Uint8Array.from(share, (v) => (v >= 255 * GLARE_CELL ? 1 : 0)) : null;
      };
      thumbGlare = glareCells(THUMB.width, THUMB.height);
      colourGlare = glareCells(COLOUR_CELLS.cols, COLOUR_CELLS.rows);
    }
    return {
      cardHash: perceptualHash(shrink(grey, DCT_INPUT, DCT_INPUT)),
      artHash: perceptualHash(shrink(art, DCT_INPUT, DCT_INPUT)),
      colour: standardisedChannels(cells.data, colourGlare),
      thumb: standardise(shrink(grey, THUMB.width, THUMB.height), thumbGlare),
      highlight: blown.count / blown.mask.length,
    };
  });
}

/** Sets the pixels of `grey` that `mask` marks to the mean of the others. */
function flattenMasked(grey: Uint8Array, mask: Uint8Array): void {
  let sum = 0;
  let kept = 0;
  for (let i = 0; i < grey.length; i++)
    if (!mask[i]) {
      sum += grey[i]!;
      kept++;
    }
  if (kept === 0 || kept === grey.length) return;
  const mean = Math.round(sum / kept);
  for (let i = 0; i < grey.length; i++) if (mask[i]) grey[i] = mean;
}

/** The pixels blown out to white (every channel at least HIGHLIGHT_LEVEL): 255 in `mask`, and how many. */
function blownOut(rgb: Uint8Array): { mask: Uint8Array; count: number } {
  const mask = new Uint8Array(rgb.length / 3);
  let count = 0;
  for (let i = 0, p = 0; p < rgb.length; i++, p += 3)
    if (rgb[p]! >= HIGHLIGHT_LEVEL && rgb[p + 1]! >= HIGHLIGHT_LEVEL && rgb[p + 2]! >= HIGHLIGHT_LEVEL) {
      mask[i] = 255;
      count++;
    }
  return { mask, count };
}

/** Interleaved RGB cells with each channel brought to mean 0 and standard deviation 1 over the cells not `skip`ped; skipped cells become 0. */
function standardisedChannels(rgb: Uint8Array, skip: Uint8Array | null = null): Float32Array {
  const out = Float32Array.from(rgb);
  const cells = out.length / 3;
  let kept = 0;
  for (let i = 0; i < cells; i++) if (!skip?.[i]) kept++;
  for (let c = 0; c < 3; c++) {
    let mean = 0;
    for (let i = 0; i < cells; i++) if (!skip?.[i]) mean += out[3 * i + c]!;
    mean /= kept || 1;
    let variance = 0;
    for (let i = 0; i < cells; i++) if (!skip?.[i]) variance += (out[3 * i + c]! - mean) ** 2;
    const sd = Math.sqrt(variance / (kept || 1)) || 1;
    for (let i = 0; i < cells; i++) out[3 * i + c] = skip?.[i] ? 0 : (out[3 * i + c]! - mean) / sd;
  }
  return out;
}

/** Hamming distance between two 256-bit hashes stored at `a[ai..]` and `b[bi..]` (bit counts by SWAR, no table). */
export function hamming(a: Uint32Array, ai: number, b: Uint32Array, bi: number): number {
  let d = 0;
  for (let w = 0; w < HASH_WORDS; w++) {
    let x = a[ai + w]! ^ b[bi + w]!;
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    x = (x + (x >>> 4)) & 0x0f0f0f0f;
    d += Math.imul(x, 0x01010101) >>> 24;
  }
  return d;
}

/** Dot product of two vectors of `length` stored at `a[ai..]` and `b[bi..]`. */
export function dot(a: Float32Array, ai: number, b: Float32Array | Int8Array, bi: number, length: number): number {
  let s = 0;
  for (let i = 0; i < length; i++) s += a[ai + i]! * b[bi + i]!;
  return s;
}

/**
 * A thumbnail in 8 bits with one scale (value ≈ byte × scale): a quarter of the bytes, correlations
 * within 1 %. The index holds thumbnails this way, and PostgreSQL stores them so.
 */
export function quantiseThumb(thumb: Float32Array): { scale: number; values: Int8Array } {
  let peak = 0;
  for (let k = 0; k < thumb.length; k++) peak = Math.max(peak, Math.abs(thumb[k]!));
  const scale = peak / 127 || 1;
  const values = new Int8Array(thumb.length);
  for (let k = 0; k < thumb.length; k++) values[k] = Math.round(thumb[k]! / scale);
  return { scale, values };
}

/**
 * Bumped whenever what cardFeatures computes, or how it is stored, changes: stored features of
 * another version are recomputed (2: thumbnail stored in 8 bits, 1.2 KB an entry instead of 3.6).
 */
export const FEATURES_VERSION = 2;
/** Stored layout: hashes (32-bit words), colour, highlight and the thumbnail's scale (32-bit floats), then the thumbnail (bytes). */
const FLOATS_AT = 2 * HASH_WORDS;
const THUMB_AT = 4 * (FLOATS_AT + COLOUR_LENGTH + 2);
const SERIALISED_BYTES = THUMB_AT + THUMB_LENGTH;

/** Features as stored in PostgreSQL (little-endian). */
export function serialiseFeatures(f: CardFeatures): Buffer {
  const out = Buffer.alloc(SERIALISED_BYTES);
  const words = new Uint32Array(out.buffer, out.byteOffset, THUMB_AT / 4);
  const floats = new Float32Array(out.buffer, out.byteOffset, THUMB_AT / 4);
  words.set(f.cardHash, 0);
  words.set(f.artHash, HASH_WORDS);
  floats.set(f.colour, FLOATS_AT);
  const thumb = quantiseThumb(f.thumb);
  floats[FLOATS_AT + COLOUR_LENGTH] = f.highlight;
  floats[FLOATS_AT + COLOUR_LENGTH + 1] = thumb.scale;
  new Int8Array(out.buffer, out.byteOffset + THUMB_AT, THUMB_LENGTH).set(thumb.values);
  return out;
}

/** Features from their stored form, or null when the bytes are not of this version's length. */
export function deserialiseFeatures(bytes: Buffer): CardFeatures | null {
  if (bytes.length !== SERIALISED_BYTES) return null;
  // Copied: a Buffer from the pool may sit at an offset that is not a multiple of four.
  const copy = new Uint8Array(bytes).buffer;
  const words = new Uint32Array(copy, 0, THUMB_AT / 4);
  const floats = new Float32Array(copy, 0, THUMB_AT / 4);
  const scale = floats[FLOATS_AT + COLOUR_LENGTH + 1]!;
  const bytesOfThumb = new Int8Array(copy, THUMB_AT, THUMB_LENGTH);
  const thumb = new Float32Array(THUMB_LENGTH);
  for (let k = 0; k < THUMB_LENGTH; k++) thumb[k] = bytesOfThumb[k]! * scale;
  return {
    cardHash: words.subarray(0, HASH_WORDS),
    artHash: words.subarray(HASH_WORDS, 2 * HASH_WORDS),
    colour: floats.subarray(FLOATS_AT, FLOATS_AT + COLOUR_LENGTH),
    thumb,
    highlight: floats[FLOATS_AT + COLOUR_LENGTH]!,
  };
}
