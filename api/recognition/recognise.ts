// POST /api/cards/recognize, /recognize/confirm and /detect-edges: a photo decoded and checked,
// recognised against the in-memory index, kept for the confirm step, and presented.
import type { z } from 'zod';
import type { Db } from '../../sql/stores/db.js';
import type { RedisStore } from '../../sql/stores/redis.js';
import { DomainError, InvalidInput, NotFound } from '../../schemas/errors.js';
import type { ConfirmedRecognition, ConfirmRecognitionBody, DetectedEdges, RecognitionResult } from '../../schemas/recognition.js';
import { confirmRecognition, recognitionCards, recognitionOfUser, recordRecognition } from '../../sql/recognition.js';
import { openCv } from '../../ingest/recognition/opencv.js';
import { decodePhoto, findCardQuads, quadAspect, type Photo, type PhotoRefusal, type Quad } from '../../ingest/recognition/photo.js';
import { recognisePhoto } from '../../ingest/recognition/recognise.js';
import type { LiveRecognitionIndex } from '../../ingest/recognition/indexLoad.js';
import type { RecognitionThreads } from '../../ingest/recognition/passWorkers.js';
import { QUALITY_THRESHOLDS } from '../../ingest/recognition/quality.js';
import { cardImageUrl } from '../images/urls.js';
import { addEntry, type EntryRow } from '../collection/entries.js';

export type RecognitionDeps = {
  db: Db;
  redis: RedisStore;
  redisPrefix: string;
  recognitionIndex: LiveRecognitionIndex;
  recognitionThreads: RecognitionThreads;
};
type Result = z.input<typeof RecognitionResult>;

/** The photo, decoded (see decodePhoto), or the 4xx that says why not. */
export async function readPhoto(bytes: Buffer, opts: { quarterTurn?: boolean } = {}): Promise<Photo> {
  const photo = await decodePhoto(bytes, opts);
  if (!('refused' in photo)) return photo;
  throw refusal(photo.refused);
}

function refusal(why: PhotoRefusal): Error {
  switch (why) {
    case 'not_a_picture':
      return new DomainError(
        'unsupported_media_type',
        'the file is not a readable picture (truncated, corrupt, or not an image; recognised by its content, not its name)',
      );
    case 'unsupported_format':
      return new DomainError(
        'unsupported_media_type',
        'send a JPEG, PNG, WebP or AVIF-coded HEIF photo (HEVC-coded HEIC cannot be decoded here: export it as JPEG)',
      );
    case 'too_many_pixels':
      return new DomainError('too_large', 'the photo has more than 50 megapixels');
    case 'too_small':
      return new InvalidInput([{ loc: ['body', 'file'], msg: 'the photo must be at least 64 pixels on each side', type: 'value_error' }]);
  }
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
const inPhotoPixels = (q: Quad, scale: number) => q.map((p) => ({ x: Math.round(p.x * scale), y: Math.round(p.y * scale) }));

/**
 * Recognises a decoded photo and keeps the answer (for confirm, and to measure accuracy on real
 * traffic). The first candidate's confidence is the matcher's calibrated one; each other
 * candidate's is its share of the remaining doubt, from a softmax of the re-ranked distances, but
 * never more than the candidate before it: the list is the matcher's order, most likely first, and
 * the confidences say so (an unsure first answer does not make the second one look surer).
 */
export async function recognise(
  deps: RecognitionDeps,
  userId: number | null,
  photo: Photo,
  sessionId: string | null = null,
): Promise<Result> {
  const [cv, index] = await Promise.all([openCv(), deps.recognitionIndex.current()]);
  const outcome = await recognisePhoto(cv, index, photo, deps.recognitionThreads);
  const best = outcome.best;
  // Unsure answers are answered too, with their low confidence and needs_manual_review: the user
  // picks from them or corrects them (confirm), rather than starting again from nothing.
  const ranked = outcome.candidates;
  const cards = new Map(
    (
      await recognitionCards(
        deps.db,
        ranked.map((r) => r.cardId),
      )
    ).map((c) => [c.card_id, c]),
  );
  const top = best?.match.confidence ?? 0;
  const weights = ranked.map((r) => Math.exp(-(r.distance - ranked[0]!.distance) / 0.03));
  const weightSum = weights.reduce((a, b) => a + b, 0);
  let ceiling = 1;
  const candidates = ranked.flatMap((r, i) => {
    const card = cards.get(r.cardId);
    if (!card) return [];
    const confidence = Math.min(ceiling, i === 0 ? top : (1 - top) * (weights[i]! / weightSum));
    ceiling = confidence;
    return [{ ...card, confidence: round3(confidence), rotation_used: r.rotation, image_url: cardImageUrl(card.card_id, 'small') }];
  });
  const result: Omit<Result, 'recognition_id'> = {
    candidates,
    capture_quality: outcome.quality,
    card_quad: best && best.candidate.found !== 'frame' ? inPhotoPixels(best.candidate.quad, photo.scale) : null,
    rotation_fallback: outcome.retried,
    index_cards: index.cards,
  };
  let recognitionId: number | null = null;
  if (candidates.length) {
    const [row] = await recordRecognition(
      deps.db,
      userId,
      sessionId,
      candidates[0]!.card_id,
      top,
      outcome.quality.verdict,
      JSON.stringify(result),
    );
    recognitionId = row!.id;
  }
  return { recognition_id: recognitionId, ...result };
}

/** A confirmation with the collection entry it added, if any, as the service reads it (recognisePresenter.ts shapes it). */
export type Confirmed = Omit<z.input<typeof ConfirmedRecognition>, 'collection_entry'> & { collection_entry: EntryRow | null };

/** Stores what the card is (the first candidate or a correction), and adds it to the collection when asked. */
export async function confirm(deps: RecognitionDeps, userId: number, body: z.output<typeof ConfirmRecognitionBody>): Promise<Confirmed> {
  const [recognition] = await recognitionOfUser(deps.db, body.recognition_id, userId);
  if (!recognition) throw new NotFound('Recognition');
  const [card] = await recognitionCards(deps.db, [body.card_id]);
  if (!card) throw new NotFound('Card');
  return deps.db.transaction(async (tx) => {
    const entry = body.add_to_collection
      ? await addEntry({ db: tx, redis: deps.redis, redisPrefix: deps.redisPrefix }, userId, {
          card_id: body.card_id,
          quantity: body.quantity,
          condition: body.condition,
          graded: false,
        })
      : null;
    const [confirmed] = await confirmRecognition(tx, body.recognition_id, userId, body.card_id, recognition.card_id, entry?.id ?? null);
    if (!confirmed) throw new DomainError('conflict', 'this recognition was confirmed already');
    return {
      ok: true as const,
      recognition_id: body.recognition_id,
      card_id: body.card_id,
      suggestion_was_right: recognition.card_id === body.card_id,
      collection_entry: entry,
    };
  });
}

/** The card's quadrilateral and whether the photo is worth sending: edges only, no matching. */
export async function detectEdges(photo: Photo): Promise<z.input<typeof DetectedEdges>> {
  const cv = await openCv();
  const rgb = cv.matFromArray(photo.height, photo.width, cv.CV_8UC3, photo.rgb);
  try {
    const [best] = findCardQuads(cv, photo, rgb, 1).filter((q) => q.found !== 'frame');
    if (!best) return { card_found: false, card_quad: null, edge_support: 0, aspect_ratio: null, card_pixels: null, hint: 'no_card' };
    const { ratio, long } = quadAspect(best.quad);
    const pixels = Math.round(long * photo.scale);
    return {
      card_found: true,
      card_quad: inPhotoPixels(best.quad, photo.scale),
      edge_support: round3(Math.min(1, best.support)),
      aspect_ratio: round3(ratio),
      card_pixels: pixels,
      hint: pixels < QUALITY_THRESHOLDS.resolution ? 'move_closer' : 'ok',
    };
  } finally {
    rgb.delete();
  }
}
