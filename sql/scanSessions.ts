// Cross-device scan sessions (issue 17 §4): one typed function per query file.
import { z } from 'zod';
import { pgQuery } from './typedQuery.js';

const time = z.string();
const Created = z.object({ id: z.string(), created_at: time, expires_at: time });
/** Opens a session that lives `seconds`; `counted`: its recognitions count against the owner's quota. */
export const createScanSession = pgQuery<[id: string, userId: number, counted: boolean, seconds: number], typeof Created>(
  'scanSessions/scan_session_create',
  Created,
);
const Session = z.object({
  id: z.string(),
  user_id: z.number().int(),
  counted: z.boolean(),
  claimed_at: time.nullable(),
  completed_at: time.nullable(),
  created_at: time,
  expires_at: time,
  last_seq: z.number().int(),
  expired: z.boolean(),
});
export type ScanSessionRow = z.infer<typeof Session>;
/** A session of this owner. */
export const scanSessionOfOwner = pgQuery<[id: string, userId: number], typeof Session>('scanSessions/scan_session_of_owner', Session);
const Claimed = z.object({ id: z.string(), user_id: z.number().int(), claimed_at: time, expires_at: time });
/** Claims a live, unclaimed session, handing it the device token's hash. */
export const claimScanSession = pgQuery<[id: string, deviceTokenHash: Buffer], typeof Claimed>('scanSessions/scan_session_claim', Claimed);
const ClaimState = z.object({ claimed: z.boolean(), over: z.boolean() });
/** Whether a session was claimed or is over (why a claim failed). */
export const scanSessionClaimState = pgQuery<[id: string], typeof ClaimState>('scanSessions/scan_session_claim_state', ClaimState);
const OfDevice = z.object({
  id: z.string(),
  user_id: z.number().int(),
  tier: z.string(),
  counted: z.boolean(),
  completed: z.boolean(),
  expired: z.boolean(),
});
export type DeviceSessionRow = z.infer<typeof OfDevice>;
/** The session a device token opens. */
export const scanSessionOfDevice = pgQuery<[id: string, deviceTokenHash: Buffer], typeof OfDevice>(
  'scanSessions/scan_session_of_device',
  OfDevice,
);
const Event = z.object({ seq: z.number().int(), type: z.string(), payload: z.record(z.string(), z.unknown()), created_at: time });
export type ScanSessionEventRow = z.infer<typeof Event>;
/** Closes a live session with its `completed` event (none when it was closed already). */
export const completeScanSession = pgQuery<[id: string], typeof Event>('scanSessions/scan_session_complete', Event);
/** Writes the `expired` event of a session that ran out, once. */
export const noteScanSessionExpiry = pgQuery<[id: string], typeof Event>('scanSessions/scan_session_expiry_note', Event);
/** Appends an event. */
export const appendScanSessionEvent = pgQuery<[id: string, type: string, payload: string], typeof Event>(
  'scanSessions/scan_session_event_append',
  Event,
);
/** Events after `seq`, in order. */
export const scanSessionEventsAfter = pgQuery<[id: string, seq: number], typeof Event>('scanSessions/scan_session_events_after', Event);
