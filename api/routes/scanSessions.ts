// Cross-device scan sessions (spec: paths under /api/scan-sessions; issue 17 §4), and the phone's
// page the QR code opens (GET /scan/{id}: ours; it claims with the token in the URL's fragment,
// which browsers never send to a server, and uploads photos).
import { z } from '../../schemas/common.js';
import { intParam } from '../../schemas/common.js';
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../http/route.js';
import { readUploadedFile } from '../http/upload.js';
import {
  ClaimedScanSession,
  ClaimScanSessionBody,
  PHOTO_MAX_BYTES,
  PhotoUpload,
  ScanDeviceHeaders,
  ScanEventAccepted,
  ScanPhotoResult,
  ScanResultsBody,
  ScanSessionEvent,
  ScanSessionOut,
  ScanSessionParams,
} from '../../schemas/recognition.js';
import * as sessions from '../recognition/scanSessions.js';
import { presentScanSession } from '../recognition/scanSessionsPresenter.js';
import { recognitionsPerDay } from '../recognition/quota.js';
import type { Caller } from '../auth/caller.js';
import { scanPage } from '../recognition/scanPage.js';

const tags = ['scan-sessions'];

const SseQuery = z.object({
  last_event_id: intParam({
    min: 0,
    max: 2147483647,
    description: 'Resume after this event (as the Last-Event-ID header does).',
  }).optional(),
});

/** The phone (X-Scan-Device-Token) or the signed-in owner. */
function writerOf(caller: Caller<'free'>, headers: { 'x-scan-device-token'?: string }): sessions.SessionWriter {
  const { principal } = caller;
  return {
    deviceToken: headers['x-scan-device-token'] ?? null,
    userId: caller.account?.id ?? null,
    perDay: principal ? recognitionsPerDay(principal) : null,
  };
}

const SseHeaders = z.object({
  'last-event-id': z.string().optional().openapi({ description: 'Resume after this event (a reconnecting EventSource sends it).' }),
});

function lastEventId(headers: { 'last-event-id'?: string }, query: { last_event_id?: number }): number {
  const header = Number(headers['last-event-id']);
  return query.last_event_id ?? (Number.isSafeInteger(header) && header > 0 ? header : 0);
}

export const scanSessionRoutes = (deps: AppDeps) => {
  const d: sessions.ScanSessionDeps = {
    db: deps.db,
    redis: deps.stores.redis,
    redisPrefix: deps.config.redisPrefix,
    recognitionIndex: deps.recognitionIndex,
    recognitionThreads: deps.recognitionThreads,
    tokens: deps.tokens,
    siteOrigin: deps.config.siteOrigin,
  };
  const phone = 'The phone sends X-Scan-Device-Token (from the claim); the session’s owner may call it signed in instead.';
  return [
    defineRoute({
      method: 'post',
      path: '/api/scan-sessions',
      summary: 'Create a scan session (desktop)',
      description:
        'Lives 30 minutes. The answer alone carries `claim_url` (what the QR code holds) and `claim_token`; the token works once. Photos uploaded to a session made with an API key count against the owner’s daily recognitions; with a session cookie they are unlimited.',
      tags,
      access: 'starter+',
      response: ScanSessionOut,
      status: 201,
      handler: async ({ caller }) =>
        presentScanSession(await sessions.createSession(d, caller.account.id, caller.principal.kind === 'key')),
    }),
    defineRoute({
      method: 'get',
      path: '/api/scan-sessions/{id}',
      summary: 'A scan session’s state (owner only)',
      description: 'States: open (waiting for a phone), claimed, completed, expired. Another user’s session is 404.',
      tags,
      access: 'starter+',
      params: ScanSessionParams,
      response: ScanSessionOut,
      errors: [404],
      handler: async ({ caller, params }) => presentScanSession(await sessions.getSession(d, params.id, caller.account.id)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/scan-sessions/{id}/qr.png',
      summary: 'The claim URL as a QR code (owner only)',
      tags,
      access: 'starter+',
      params: ScanSessionParams,
      produces: 'png',
      response: z.string().openapi({ type: 'string', format: 'binary', description: 'PNG, 360 px' }),
      errors: [404, 409],
      handler: async ({ caller, params }) => sessions.sessionQrCode(d, params.id, caller.account.id),
    }),
    defineRoute({
      method: 'post',
      path: '/api/scan-sessions/{id}/claim',
      summary: 'Claim a scan session with its token (phone, no login)',
      description:
        'Works once (409 after, or once the session is over; 403 for a wrong token). Answers the device token the phone sends from then on.',
      tags,
      params: ScanSessionParams,
      body: ClaimScanSessionBody,
      response: ClaimedScanSession,
      errors: [403, 404, 409],
      handler: async ({ params, body }) => sessions.claimSession(d, params.id, body.claim_token),
    }),
    defineRoute({
      method: 'post',
      path: '/api/scan-sessions/{id}/upload-photo',
      summary: 'Upload a photo to a scan session and recognise it',
      description: `multipart/form-data with the photo in \`file\` (as POST /api/cards/recognize). Turned 90° clockwise and stripped of EXIF (spec), then recognised; the desktop gets \`photo_uploaded\` and \`recognized\` events. The photo is not kept. ${phone}`,
      tags,
      params: ScanSessionParams,
      headers: ScanDeviceHeaders,
      body: PhotoUpload,
      bodyType: 'multipart',
      response: ScanPhotoResult,
      errors: [401, 403, 404, 409, 413, 415, 429],
      // ctx: the photo is an upload, read from the request's stream.
      handler: async ({ caller, headers, ctx, params }) =>
        sessions.uploadPhoto(
          d,
          params.id,
          writerOf(caller, headers),
          async () => (await readUploadedFile(ctx, { field: 'file', maxBytes: PHOTO_MAX_BYTES })).file,
        ),
    }),
    defineRoute({
      method: 'post',
      path: '/api/scan-sessions/{id}/results',
      summary: 'Send the cards settled on to the desktop',
      description: `A \`result\` event with the card ids (and a note). ${phone}`,
      tags,
      params: ScanSessionParams,
      headers: ScanDeviceHeaders,
      body: ScanResultsBody,
      response: ScanEventAccepted,
      errors: [401, 403, 404, 409],
      handler: async ({ caller, headers, params, body }) => sessions.postResults(d, params.id, writerOf(caller, headers), body),
    }),
    defineRoute({
      method: 'post',
      path: '/api/scan-sessions/{id}/complete',
      summary: 'Complete a scan session',
      description: `Ends it with a \`completed\` event; 409 when it is over already. ${phone}`,
      tags,
      params: ScanSessionParams,
      headers: ScanDeviceHeaders,
      response: ScanEventAccepted,
      errors: [401, 403, 404, 409],
      handler: async ({ caller, headers, params }) => sessions.completeSession(d, params.id, writerOf(caller, headers)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/scan-sessions/{id}/sse',
      summary: 'A scan session’s events as server-sent events (owner only)',
      description:
        'In order, each with its sequence number as the SSE id: claimed {claimed_at}, photo_uploaded {width, height, bytes}, recognized {recognition_id, candidates, capture_quality}, result {card_ids, note}, completed {completed_at}, expired {expires_at}. A reconnecting client sends Last-Event-ID (or ?last_event_id=) and gets what it missed. The stream ends after completed or expired; a comment every 15 s keeps it open.',
      tags,
      access: 'starter+',
      params: ScanSessionParams,
      query: SseQuery,
      headers: SseHeaders,
      produces: 'event-stream',
      response: ScanSessionEvent,
      errors: [404],
      handler: async ({ caller, headers, params, query }) =>
        sessions.sessionEvents(d, params.id, caller.account.id, lastEventId(headers, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/scan/{id}',
      summary: 'The phone’s scan page (what the QR code opens)',
      description: 'Claims the session with the token in the URL’s fragment, then takes photos and uploads them; no login.',
      tags,
      params: ScanSessionParams,
      produces: 'html',
      response: z.string().openapi({ description: 'text/html' }),
      handler: async ({ params }) => scanPage(params.id),
    }),
  ];
};
