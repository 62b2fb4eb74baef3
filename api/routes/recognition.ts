// Card recognition (spec: "Card recognition"; issue 17): recognise a photo, confirm what it is,
// and a cheap edge pre-check. starter+: session users (unlimited) or keys of Starter and up,
// within their tier's recognitions a day.
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../http/route.js';
import { readUploadedFile } from '../http/upload.js';
import {
  ConfirmedRecognition,
  ConfirmRecognitionBody,
  DetectedEdges,
  PHOTO_MAX_BYTES,
  PhotoUpload,
  RecognitionResult,
} from '../../schemas/recognition.js';
import { confirm, detectEdges, readPhoto, recognise, type RecognitionDeps } from '../recognition/recognise.js';
import { presentConfirmed } from '../recognition/recognisePresenter.js';
import { countRecognition } from '../recognition/quota.js';
import { userOf } from '../auth/caller.js';

const tags = ['recognition'];

export const recognitionRoutes = (deps: AppDeps) => {
  const recognition: RecognitionDeps = {
    db: deps.db,
    redis: deps.stores.redis,
    redisPrefix: deps.config.redisPrefix,
    recognitionIndex: deps.recognitionIndex,
    recognitionThreads: deps.recognitionThreads,
  };
  return [
    defineRoute({
      method: 'post',
      path: '/api/cards/recognize',
      summary: 'Recognise a card from a photo',
      description:
        'multipart/form-data with the photo in `file`. The card is found (edges, contours, straight lines), cut out in perspective and matched against every card picture we hold; when the first pass is not sure (confidence below 0.9) the photo is tried turned −90, 180 and +90 degrees, and `candidates[0].rotation_used` says which won. `capture_quality` gives the verdict and each measured signal with its threshold. Counts against the tier’s recognitions a day (429 with Retry-After past it; session users unlimited).',
      tags,
      access: 'starter+',
      body: PhotoUpload,
      bodyType: 'multipart',
      response: RecognitionResult,
      errors: [413, 415, 429],
      // ctx: the photo is an upload, read from the request's stream.
      // Not one call: the upload is parsed here, then the quota is counted before recognition runs.
      handler: async ({ caller, ctx }) => {
        // The operator may try recognition too; its scans belong to no account.
        const userId = userOf(caller.principal)?.id ?? null;
        const photo = await readPhoto((await readUploadedFile(ctx, { field: 'file', maxBytes: PHOTO_MAX_BYTES })).file);
        await countRecognition(recognition, caller.principal);
        return recognise(recognition, userId, photo);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/cards/recognize/confirm',
      summary: 'Confirm what a recognised card is',
      description:
        'Stores the confirmed card of an own recognition (the first candidate, or a correction: any card id), once; `add_to_collection` also adds it to the collection in the same transaction. 404 for another user’s recognition, 409 when confirmed already.',
      tags,
      access: 'starter+',
      body: ConfirmRecognitionBody,
      response: ConfirmedRecognition,
      status: 201,
      errors: [404, 409],
      handler: async ({ caller, body }) => presentConfirmed(await confirm(recognition, caller.account.id, body)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/cards/detect-edges',
      summary: 'Edge-only pre-check of a photo',
      description:
        'multipart/form-data with the photo in `file`: where the card is and whether the photo is worth recognising (no matching, not counted against the recognition quota).',
      tags,
      access: 'starter+',
      body: PhotoUpload,
      bodyType: 'multipart',
      response: DetectedEdges,
      errors: [413, 415],
      // ctx: the photo is an upload, read from the request's stream.
      // Not one call: reading the upload's stream is the parse step; detectEdges is the one service call.
      handler: async ({ ctx }) =>
        detectEdges(await readPhoto((await readUploadedFile(ctx, { field: 'file', maxBytes: PHOTO_MAX_BYTES })).file)),
    }),
  ];
};
