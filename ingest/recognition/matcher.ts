// The recognition index in memory: every reference card's features in flat typed arrays, matched
// in two stages. A Hamming scan of the two 256-bit hashes over all entries (32 bytes × 2 each, no
// allocation: ~2 ms for 20k cards' 40k entries) keeps the closest SHORTLIST; only those are
// re-ranked by thumbnail correlation and colour, the work that separates near twins.
import { COLOUR_LENGTH, dot, hamming, HASH_WORDS, quantiseThumb, THUMB_LENGTH, type CardFeatures } from './features.js';

/** One entry of the index; a card may have several (see referenceFeatures). */
export type IndexedCard = { cardId: number; features: CardFeatures };

const SHORTLIST = 24;
const HASH_BITS = HASH_WORDS * 32 * 2;

/** A card and how far the photo is from its closest entry; `highlight` is that entry's. */
export type Ranked = { cardId: number; distance: number; highlight: number; hashDistance: number };
export type MatchResult = {
  ranked: Ranked[];
  /** How far the winning card's hash distance stands below all entries' mean, in standard deviations. */
  separation: number;
  /** The re-ranked distance of the second best minus the best's. */
  margin: number;
  confidence: number;
};

/** The index's entries, each field one flat typed array over shared memory. */
type IndexArrays = {
  cardIds: Int32Array;
  cardHashes: Uint32Array;
  artHashes: Uint32Array;
  colours: Float32Array;
  /** Thumbnails in 8 bits with a scale each (quantiseThumb). */
  thumbs: Int8Array;
  thumbScales: Float32Array;
  highlights: Float32Array;
};

/**
 * A filled index as a recognition worker thread is sent it (see passWorkers.ts): the same arrays,
 * shared rather than copied, and how far they are filled.
 */
export type SharedIndexArrays = IndexArrays & { size: number; cards: number };

const sharedArray = <T>(Kind: new (buffer: SharedArrayBuffer) => T, bytesPerElement: number, length: number): T =>
  new Kind(new SharedArrayBuffer(bytesPerElement * length));

export class RecognitionIndex {
  /** Entries held (a card has one per cut). */
  size = 0;
  #cards = 0;
  private readonly arrays: IndexArrays;
  /** match()'s hash distances, reused: it runs synchronously, many times a photo (one copy per thread). */
  private readonly hashDistances: Float32Array;
  private readonly position = new Map<number, number>();

  /**
   * Room for `capacity` entries in shared memory, filled by add(): loaded page by page, nothing
   * else is held. Given a filled index's shared arrays instead, a view of that index (a worker's).
   */
  constructor(from: number | SharedIndexArrays) {
    if (typeof from === 'number') {
      const n = from;
      this.arrays = {
        cardIds: sharedArray(Int32Array, 4, n),
        cardHashes: sharedArray(Uint32Array, 4, n * HASH_WORDS),
        artHashes: sharedArray(Uint32Array, 4, n * HASH_WORDS),
        colours: sharedArray(Float32Array, 4, n * COLOUR_LENGTH),
        thumbs: sharedArray(Int8Array, 1, n * THUMB_LENGTH),
        thumbScales: sharedArray(Float32Array, 4, n),
        highlights: sharedArray(Float32Array, 4, n),
      };
    } else {
      const { size, cards, ...arrays } = from;
      this.size = size;
      this.#cards = cards;
      this.arrays = arrays;
    }
    this.hashDistances = new Float32Array(this.capacity);
  }

  /** Entries the index has room for. */
  get capacity(): number {
    return this.arrays.cardIds.length;
  }

  /** The filled entries' arrays, shared (not copied) with whoever is sent them. */
  get shared(): SharedIndexArrays {
    return { ...this.arrays, size: this.size, cards: this.cards };
  }

  static of(cards: IndexedCard[]): RecognitionIndex {
    const index = new RecognitionIndex(cards.length);
    for (const c of cards) index.add(c.cardId, c.features);
    return index;
  }

  /** Distinct cards. */
  get cards(): number {
    return Math.max(this.#cards, this.position.size);
  }

  add(cardId: number, f: CardFeatures): void {
    if (this.size === this.capacity) throw new Error('recognition index full');
    const i = this.size++;
    this.arrays.cardIds[i] = cardId;
    this.arrays.cardHashes.set(f.cardHash, i * HASH_WORDS);
    this.arrays.artHashes.set(f.artHash, i * HASH_WORDS);
    this.arrays.colours.set(f.colour, i * COLOUR_LENGTH);
    const thumb = quantiseThumb(f.thumb);
    this.arrays.thumbScales[i] = thumb.scale;
    this.arrays.thumbs.set(thumb.values, i * THUMB_LENGTH);
    this.arrays.highlights[i] = f.highlight;
    this.position.set(cardId, i);
  }

  /** Bytes the index holds, for sizing. */
  get bytes(): number {
    return Object.values(this.arrays).reduce((sum, array) => sum + array.byteLength, 0);
  }

  match(q: CardFeatures, top = 5): MatchResult {
    const n = this.size;
    if (n === 0) return { ranked: [], separation: 0, margin: 0, confidence: 0 };
    const hashDistance = this.hashDistances.subarray(0, n);
    let sum = 0;
    let sumSq = 0;
    for (let i = 0; i < n; i++) {
      const d =
        hamming(q.cardHash, 0, this.arrays.cardHashes, i * HASH_WORDS) + hamming(q.artHash, 0, this.arrays.artHashes, i * HASH_WORDS);
      hashDistance[i] = d;
      sum += d;
      sumSq += d * d;
    }
    const shortlist = smallest(hashDistance, Math.min(SHORTLIST, n));
    // A card has several entries (whole, inside its border): it ranks by its closest one.
    const closest = new Map<number, Ranked>();
    for (const i of shortlist) {
      const correlation = this.arrays.thumbScales[i]! * dot(q.thumb, 0, this.arrays.thumbs, i * THUMB_LENGTH, THUMB_LENGTH);
      const colour = dot(q.colour, 0, this.arrays.colours, i * COLOUR_LENGTH, COLOUR_LENGTH) / COLOUR_LENGTH;
      const distance = hashDistance[i]! / HASH_BITS + 0.5 * (1 - correlation) + 0.25 * (1 - colour);
      const cardId = this.arrays.cardIds[i]!;
      const seen = closest.get(cardId);
      if (!seen || distance < seen.distance)
        closest.set(cardId, { cardId, distance, highlight: this.arrays.highlights[i]!, hashDistance: hashDistance[i]! });
    }
    const ranked = [...closest.values()];
    ranked.sort((a, b) => a.distance - b.distance);
    const mean = sum / n;
    const sd = Math.sqrt(Math.max(1e-9, sumSq / n - mean * mean));
    // The winner's own hash separation: when the re-ranking overturns the hash's choice, the
    // answer is only as sure as the hash is of the card it names.
    const separation = ranked.length ? (mean - ranked[0]!.hashDistance) / sd : 0;
    const margin = ranked.length > 1 ? ranked[1]!.distance - ranked[0]!.distance : 1;
    return { ranked: ranked.slice(0, top), separation, margin, confidence: confidenceOf(separation) };
  }
}

/** Indices of the k smallest values, smallest first. */
function smallest(values: Float32Array, k: number): number[] {
  const best: number[] = [];
  for (let i = 0; i < values.length; i++) {
    if (best.length === k && values[i]! >= values[best[k - 1]!]!) continue;
    let j = best.length === k ? k - 1 : best.length;
    if (best.length < k) best.push(i);
    while (j > 0 && values[best[j - 1]!]! > values[i]!) {
      best[j] = best[j - 1]!;
      j--;
    }
    best[j] = i;
  }
  return best;
}

/** A match at least this confident ends the search (and the rotation fallback). */
export const ACCEPT_CONFIDENCE = 0.9;

/**
 * Confidence from the separation: 0 at 3 SDs (where cards absent from the index land, 3.5–4.4),
 * 0.9 at 6.6 (no wrong answer above it in bench:recognition), 1 from 7. See README "Card recognition".
 */
export function confidenceOf(separation: number): number {
  return Math.max(0, Math.min(1, (separation - 3) / 4));
}
