// Cross-device scan sessions (spec: "Cross-device scan sessions"; issue 17 §4). The desktop
// creates a session and shows its QR code; the phone opens the claim URL, claims the session once
// with the token in it (no login) and gets a device token; its photos are turned 90° clockwise,
// stripped of EXIF and recognised; the desktop follows along over SSE. Every event is a row of
// scan_session_events (ordered by the session's row lock) and is published on the session's
// Redis channel, so the phone and the desktop may talk to different API instances.
import crypto from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import QRCode from 'qrcode';
import type { z } from 'zod';
import { DomainError, NotFound } from '../../schemas/errors.js';
import type { Tier } from '../../schemas/tiers.js';
import { SCAN_SESSION_SECONDS, type ClaimedScanSession, type ScanSessionOut, type ScanPhotoResult } from '../../schemas/recognition.js';
import * as q from '../../sql/scanSessions.js';
import type { Tokens } from '../../sql/runtime/signedTokens.js';
import { SSE_KEEPALIVE_MS, SSE_MAX_BUFFERED, sseFrame } from '../http/serverSentEvents.js';
import { countAgainstQuota, keyRecognitionsPerDay } from './quota.js';
import { readPhoto, recognise, type RecognitionDeps } from './recognise.js';

export type ScanSessionDeps = RecognitionDeps & { tokens: Tokens; siteOrigin: string };

/** Events read from PostgreSQL at a time (scan_session_events_after's LIMIT). */
const EVENTS_PAGE = 500;

const channelOf = (deps: ScanSessionDeps, id: string) => `${deps.redisPrefix}:scan-session:${id}`;
const digest = (token: string) => crypto.createHash('sha256').update(token).digest();

/**
 * The claim token: a signed JWT (purpose "scan-claim") naming the session and expiring with it.
 * HS256 is deterministic, so none is stored and the QR code can be drawn again with the same token.
 */
function claimToken(deps: ScanSessionDeps, row: { id: string; expires_at: string }): Promise<string> {
  return deps.tokens.sign('scan-claim', { sub: row.id }, Math.ceil(Date.parse(row.expires_at) / 1000));
}

const claimUrl = async (deps: ScanSessionDeps, row: { id: string; expires_at: string }) =>
  `${deps.siteOrigin}/scan/${row.id}#claim=${await claimToken(deps, row)}`;

export function stateOf(row: q.ScanSessionRow): z.infer<typeof ScanSessionOut>['state'] {
  if (row.completed_at) return 'completed';
  if (row.expired) return 'expired';
  return row.claimed_at ? 'claimed' : 'open';
}

/** Publishes an appended event to every instance's SSE readers (a lost publish is recovered by the readers' replay). */
async function publish(deps: ScanSessionDeps, id: string, event: q.ScanSessionEventRow | undefined): Promise<void> {
  if (event) await deps.redis.publish(channelOf(deps, id), JSON.stringify(event)).catch(() => undefined);
}

async function append(deps: ScanSessionDeps, id: string, type: string, payload: Record<string, unknown>): Promise<number> {
  const [event] = await q.appendScanSessionEvent(deps.db, id, type, JSON.stringify(payload));
  await publish(deps, id, event);
  return event!.seq;
}

/** A session and, to its creator only, the secrets that link a phone (scanSessionsPresenter.ts shapes it). */
export type ScanSession = { row: q.ScanSessionRow; secrets: { claim_url: string; claim_token: string } | null };

export async function createSession(deps: ScanSessionDeps, userId: number, viaApiKey: boolean): Promise<ScanSession> {
  const id = crypto.randomUUID();
  const [created] = await q.createScanSession(deps.db, id, userId, viaApiKey, SCAN_SESSION_SECONDS);
  const row = { ...created!, user_id: userId, counted: viaApiKey, claimed_at: null, completed_at: null, last_seq: 0, expired: false };
  return { row, secrets: { claim_url: await claimUrl(deps, row), claim_token: await claimToken(deps, row) } };
}

/** The owner's session (another user's is not found); its `expired` event is written on first sight. */
async function ownSession(deps: ScanSessionDeps, id: string, userId: number): Promise<{ row: q.ScanSessionRow }> {
  let [row] = await q.scanSessionOfOwner(deps.db, id, userId);
  if (!row) throw new NotFound('Scan session');
  if (row.expired && !row.completed_at) {
    const [noted] = await q.noteScanSessionExpiry(deps.db, id);
    if (noted) {
      await publish(deps, id, noted);
      [row] = await q.scanSessionOfOwner(deps.db, id, userId);
    }
  }
  return { row: row! };
}

export async function getSession(deps: ScanSessionDeps, id: string, userId: number): Promise<ScanSession> {
  return { row: (await ownSession(deps, id, userId)).row, secrets: null };
}

/** The claim URL as a QR code (PNG), for the owner's screen. */
export async function sessionQrCode(deps: ScanSessionDeps, id: string, userId: number): Promise<Buffer> {
  const { row } = await ownSession(deps, id, userId);
  if (stateOf(row) !== 'open') throw new DomainError('conflict', `the session is ${stateOf(row)}: create a new one to link a phone`);
  return QRCode.toBuffer(await claimUrl(deps, row), { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 360 });
}

/** The phone's claim: the token works once; what it gets is the device token for uploads. */
export async function claimSession(deps: ScanSessionDeps, id: string, token: string): Promise<z.input<typeof ClaimedScanSession>> {
  const verified = await deps.tokens.verify('scan-claim', token);
  // A token expires with its session: one we signed that is past its time opens nothing any more.
  if (!verified.ok && verified.reason === 'expired') throw new DomainError('conflict', 'the session is over');
  if (!verified.ok || verified.claims.sub !== id) throw new DomainError('forbidden', 'the claim token does not open this session');
  const deviceToken = crypto.randomBytes(32).toString('base64url');
  const [claimed] = await q.claimScanSession(deps.db, id, digest(deviceToken));
  if (!claimed) {
    const [state] = await q.scanSessionClaimState(deps.db, id);
    if (!state) throw new NotFound('Scan session');
    throw new DomainError('conflict', state.over ? 'the session is over' : 'the session was claimed already');
  }
  await append(deps, id, 'claimed', { claimed_at: claimed.claimed_at });
  return { ok: true as const, session_id: id, device_token: deviceToken, expires_at: claimed.expires_at };
}

/** Who may write to a session: its phone (device token) or its owner (with the owner's own quota, null: unlimited). */
export type SessionWriter = { deviceToken: string | null; userId: number | null; perDay: number | null };

async function writableSession(
  deps: ScanSessionDeps,
  id: string,
  writer: SessionWriter,
): Promise<{ userId: number; perDay: number | null }> {
  if (writer.deviceToken) {
    const [row] = await q.scanSessionOfDevice(deps.db, id, digest(writer.deviceToken));
    if (!row) throw new DomainError('forbidden', 'the device token does not open this session');
    if (row.completed || row.expired) throw new DomainError('conflict', 'the session is over');
    // A session opened with a key counts against the owner's tier as it is now: an owner moved down
    // to Free gets no recognitions through a session either.
    return { userId: row.user_id, perDay: row.counted ? keyRecognitionsPerDay(row.tier as Tier) : null };
  }
  if (writer.userId === null)
    throw new DomainError('unauthenticated', 'send the device token (X-Scan-Device-Token) or sign in as the session’s owner');
  const { row } = await ownSession(deps, id, writer.userId);
  if (stateOf(row) === 'completed' || stateOf(row) === 'expired') throw new DomainError('conflict', 'the session is over');
  return { userId: row.user_id, perDay: writer.perDay };
}

/**
 * A photo from the phone: turned 90° clockwise, without its EXIF (spec), announced,
 * recognised (counted against the owner's quota when the session was made with an API key), and
 * its result announced. The photo itself is not kept.
 */
export async function uploadPhoto(
  deps: ScanSessionDeps,
  id: string,
  writer: SessionWriter,
  readUpload: () => Promise<Buffer>,
): Promise<z.input<typeof ScanPhotoResult>> {
  const owner = await writableSession(deps, id, writer);
  // The body is read only for a writer of this session.
  const upload = await readUpload();
  // Decoded once, turned as it is decoded; the raw pixels carry no EXIF. Refused before anything is announced.
  const photo = await readPhoto(upload, { quarterTurn: true });
  await countAgainstQuota(deps, owner.userId, owner.perDay);
  await append(deps, id, 'photo_uploaded', { width: photo.original.width, height: photo.original.height, bytes: upload.length });
  const result = await recognise(deps, owner.userId, photo, id);
  const eventId = await append(deps, id, 'recognized', {
    recognition_id: result.recognition_id,
    candidates: result.candidates,
    capture_quality: result.capture_quality,
  });
  return { ...result, event_id: eventId };
}

export async function postResults(deps: ScanSessionDeps, id: string, writer: SessionWriter, body: { card_ids: number[]; note?: string }) {
  await writableSession(deps, id, writer);
  return { ok: true as const, event_id: await append(deps, id, 'result', { card_ids: body.card_ids, note: body.note ?? null }) };
}

export async function completeSession(deps: ScanSessionDeps, id: string, writer: SessionWriter) {
  await writableSession(deps, id, writer);
  const [event] = await q.completeScanSession(deps.db, id);
  if (!event) throw new DomainError('conflict', 'the session is over');
  await publish(deps, id, event);
  return { ok: true as const, event_id: event.seq };
}

/**
 * The session's events as server-sent events, in order: those after `lastEventId` replayed from
 * PostgreSQL, then live ones from the session's Redis channel (deduplicated by sequence number,
 * and re-read from PostgreSQL when one arrives out of order). Ends after `completed` or `expired`.
 */
export async function sessionEvents(deps: ScanSessionDeps, id: string, userId: number, lastEventId: number): Promise<Readable> {
  const { row } = await ownSession(deps, id, userId);
  const out = new PassThrough();
  let sent = lastEventId;
  let ended = false;
  let chain: Promise<void> = Promise.resolve();
  const finish = () => {
    if (ended) return;
    ended = true;
    out.end();
  };
  const write = (e: q.ScanSessionEventRow) => {
    if (ended || e.seq <= sent) return;
    if (out.writableLength > SSE_MAX_BUFFERED) return void out.destroy();
    out.write(sseFrame(e.seq, e.type, e.payload));
    sent = e.seq;
    if (e.type === 'completed' || e.type === 'expired') finish();
  };
  // Every step runs in one chain, so frames leave in order: a live event that is the next one is
  // written; any other (a gap: a lost or early publish) makes the chain re-read PostgreSQL.
  const after = async () => {
    for (let more = true; more && !ended;) {
      const page = await q.scanSessionEventsAfter(deps.db, id, sent);
      for (const e of page) write(e);
      more = page.length === EVENTS_PAGE;
    }
  };
  const step = (work: () => Promise<void> | void) => (chain = chain.then(work).catch(() => undefined));
  const unsubscribe = await deps.redis.subscribe(channelOf(deps, id), (message) =>
    step(() => {
      const e = JSON.parse(message) as q.ScanSessionEventRow;
      return e.seq === sent + 1 ? write(e) : after();
    }),
  );
  out.write('retry: 3000\n\n');
  await step(after);
  // The expiry is an event too: written (once, by whichever reader sees it first) when it comes.
  const untilExpiry = Math.max(0, Date.parse(row.expires_at) - Date.now());
  const expiry = row.completed_at
    ? null
    : setTimeout(() => step(async () => void (await ownSession(deps, id, userId))).then(() => step(after)), untilExpiry + 50);
  const keepalive = setInterval(() => out.write(': keep-alive\n\n'), SSE_KEEPALIVE_MS);
  const stop = () => {
    ended = true;
    clearInterval(keepalive);
    if (expiry) clearTimeout(expiry);
    void unsubscribe().catch(() => undefined);
  };
  out.once('close', stop);
  out.once('finish', stop);
  if (row.completed_at || row.expired) void step(finish);
  return out;
}
