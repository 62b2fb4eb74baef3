// Card recognition and cross-device scan sessions (spec: "Card recognition", "Cross-device scan
// sessions"; issue 17). Fields beyond those the spec lists are ours, described here.
import { freeText, z } from './common.js';
import { CollectionEntry } from './collection.js';
import { CONDITIONS } from './marketplace.js';

/** The largest photo accepted, in bytes (413 beyond): a 50-MP phone JPEG is well below. */
export const PHOTO_MAX_BYTES = 20 * 1024 * 1024;
/** How long a scan session lives (seconds): long enough to scan a binder page by page. */
export const SCAN_SESSION_SECONDS = 30 * 60;
const PG_INT_MAX = 2147483647;

export const PhotoUpload = z
  .strictObject({
    file: z.string().openapi({
      type: 'string',
      format: 'binary',
      description:
        'The photo: JPEG, PNG, WebP or AVIF-coded HEIF, recognised by its content; at most 20 MB and 50 megapixels (413 beyond), at least 64 px a side (422 below); anything else 415.',
    }),
  })
  .openapi('PhotoUpload');

const Point = z.object({ x: z.number(), y: z.number() });
export const Quad = z.array(Point).length(4).openapi('CardQuad', {
  description: 'The card’s four corners in the photo’s pixels (EXIF orientation applied), clockwise from the one nearest its top-left.',
});

const Signal = z.object({
  value: z.number(),
  threshold: z.number(),
  flagged: z.boolean(),
});

export const CaptureQuality = z
  .object({
    verdict: z.enum(['likely_real', 'suspicious', 'likely_fake', 'needs_manual_review']),
    reasons: z.array(z.enum(['card_not_found', 'low_resolution', 'screen_photo', 'blurred', 'glare', 'uncertain_match'])),
    signals: z.object({
      sharpness: Signal.openapi({
        description: 'Variance of the Laplacian of the cut card (240×336 grey); flagged below the threshold: blurred.',
      }),
      glare: Signal.openapi({
        description: 'Share of the card blown out to white beyond what the matched card prints white; flagged above.',
      }),
      screen: Signal.openapi({
        description:
          'Highest isolated spectral peak of a 128-px patch of the card at the photo’s resolution (log units over its neighbourhood); a screen’s pixel grid; flagged above.',
      }),
      resolution: Signal.openapi({ description: 'The card’s long side in the photo, px; flagged below.' }),
      match: Signal.openapi({ description: 'The best candidate’s confidence; flagged below (card not found, or not in the index).' }),
    }),
  })
  .openapi('CaptureQuality', {
    description:
      'needs_manual_review: card not found, not confidently matched, or too small; likely_fake: a photo of a screen; suspicious: blurred, glare, or a match below 0.9; likely_real otherwise.',
  });

export const RecognitionCandidate = z
  .object({
    card_id: z.number().int(),
    name: z.string(),
    game: z.string(),
    set_code: z.string(),
    set_name: z.string(),
    collector_number: z.string(),
    confidence: z.number().min(0).max(1).openapi({
      description:
        'First candidate: calibrated so that answers at 0.9 or more are wrong about 1 % of the time at most (README "Card recognition"). Others (the cards closest to any cut of the photo that was tried, nearest first): their share of the remaining doubt, at most the confidence of the candidate before. Candidates are most likely first: confidence never rises down the list.',
    }),
    rotation_used: z.union([z.literal(0), z.literal(-90), z.literal(180), z.literal(90)]).openapi({
      description: 'Degrees clockwise the photo was turned for the cut this card was matched in (0 unless the rotation fallback found it).',
    }),
    image_url: z.string(),
  })
  .openapi('RecognitionCandidate');

export const RecognitionResult = z
  .object({
    recognition_id: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Name it in /api/cards/recognize/confirm; null when the index is empty.' }),
    candidates: z.array(RecognitionCandidate).max(5),
    capture_quality: CaptureQuality,
    card_quad: Quad.nullable(),
    rotation_fallback: z
      .boolean()
      .openapi({ description: 'Whether the first pass (the photo as it stands) was unsure and other quarter turns were tried.' }),
    index_cards: z.number().int().openapi({ description: 'Cards in the recognition index.' }),
  })
  .openapi('RecognitionResult');

export const ConfirmRecognitionBody = z
  .strictObject({
    recognition_id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    card_id: z
      .number()
      .int()
      .positive()
      .max(PG_INT_MAX)
      .openapi({ description: 'The card it is: the first candidate, another one, or a card found by search.' }),
    add_to_collection: z.boolean().default(false),
    quantity: z.number().int().min(1).max(9999).default(1),
    condition: z.enum(CONDITIONS).default('NM'),
  })
  .openapi('ConfirmRecognition');

export const ConfirmedRecognition = z
  .object({
    ok: z.literal(true),
    recognition_id: z.number().int(),
    card_id: z.number().int(),
    suggestion_was_right: z.boolean(),
    collection_entry: CollectionEntry.nullable(),
  })
  .openapi('ConfirmedRecognition');

export const DetectedEdges = z
  .object({
    card_found: z.boolean(),
    card_quad: Quad.nullable(),
    edge_support: z
      .number()
      .min(0)
      .max(1)
      .openapi({ description: 'How well the quadrilateral is backed by edges (0–1); a pre-check, no matching.' }),
    aspect_ratio: z.number().nullable().openapi({ description: 'Short side over long side; a card is 63:88 ≈ 0.716.' }),
    card_pixels: z.number().nullable().openapi({ description: 'The card’s long side in the photo, px.' }),
    hint: z.enum(['ok', 'no_card', 'move_closer']),
  })
  .openapi('DetectedEdges');

export const RecognitionQuota = z
  .object({
    per_day: z.number().int().nullable().openapi({
      description:
        'For the credential asking: null is unlimited (a session, the Unlimited tier); 0 a Free key (recognition needs Starter).',
    }),
    used_today: z.number().int(),
    remaining: z.number().int().nullable(),
    resets_at: z.string(),
  })
  .openapi('RecognitionQuota');

// Scan sessions.
export const ScanSessionParams = z.object({ id: z.uuid().openapi({ description: 'The session id.' }) });
export const ScanSessionState = z.enum(['open', 'claimed', 'completed', 'expired']);

export const ScanSessionOut = z
  .object({
    id: z.string(),
    state: ScanSessionState,
    created_at: z.string(),
    expires_at: z.string(),
    claimed_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    events: z.number().int().openapi({ description: 'Events so far (the last SSE id).' }),
    claim_url: z.string().nullable().openapi({ description: 'Only in the answer that creates the session: the URL the QR code holds.' }),
    claim_token: z.string().nullable().openapi({ description: 'Only in the answer that creates the session; works once.' }),
  })
  .openapi('ScanSession');

export const ClaimScanSessionBody = z.strictObject({ claim_token: z.string().min(1).max(600) }).openapi('ClaimScanSession');
export const ClaimedScanSession = z
  .object({
    ok: z.literal(true),
    session_id: z.string(),
    device_token: z
      .string()
      .openapi({ description: 'Send it as X-Scan-Device-Token with upload-photo and results; the phone needs no login.' }),
    expires_at: z.string(),
  })
  .openapi('ClaimedScanSession');

export const ScanDeviceHeaders = z.object({ 'x-scan-device-token': z.string().optional() });

export const ScanPhotoResult = RecognitionResult.extend({ event_id: z.number().int() }).openapi('ScanPhotoResult');

export const ScanResultsBody = z
  .strictObject({
    card_ids: z.array(z.number().int().positive().max(PG_INT_MAX)).min(1).max(100),
    note: freeText({ max: 500 }).optional(),
  })
  .openapi('ScanResults', { description: 'The cards the phone’s user settled on (sent to the desktop as a `result` event).' });

export const ScanEventAccepted = z.object({ ok: z.literal(true), event_id: z.number().int() }).openapi('ScanEventAccepted');

/**
 * One SSE message as an event-stream parser reads it (every field text, as OpenAPI 3.2 describes
 * events): `data` is JSON of the shape given, stated with JSON Schema's content keywords so a
 * client (or a fuzzer) checks the parsed data too.
 */
const sessionEvent = <E extends string, D extends z.ZodRawShape>(event: E, data: D) => {
  const { $schema: _, ...contentSchema } = z.toJSONSchema(z.object(data), { target: 'draft-2020-12', io: 'input' });
  return z.object({
    id: z.string().regex(/^\d+$/).openapi({ description: 'the SSE id: the sequence number' }),
    event: z.literal(event),
    data: z.string().openapi({ contentMediaType: 'application/json', contentSchema } as Record<string, unknown>),
  });
};
export const ScanSessionEvent = z
  .discriminatedUnion('event', [
    sessionEvent('claimed', { claimed_at: z.string() }),
    sessionEvent('photo_uploaded', { width: z.number().int(), height: z.number().int(), bytes: z.number().int() }),
    sessionEvent('recognized', {
      recognition_id: z.number().int().nullable(),
      candidates: z.array(RecognitionCandidate),
      capture_quality: CaptureQuality,
    }),
    sessionEvent('result', { card_ids: z.array(z.number().int()), note: z.string().nullable() }),
    sessionEvent('completed', { completed_at: z.string() }),
    sessionEvent('expired', { expires_at: z.string() }),
  ])
  .openapi('ScanSessionEvent', {
    description:
      'What /sse sends, one SSE message each: `id:` the sequence number, `event:` the event, `data:` its data as JSON (this schema is one message as an event-stream parser reads it: {id, event, data}, each text; `data`’s contentSchema is the JSON’s shape).',
  });
