// Cross-device scan sessions (issue 17 §4): one typed function per query file.
import { z } from 'zod';
import { pgQuery } from './typedQuery.js';

const time = z.string();
const Created = z.object({ id: z.string(), created_at: time, expires_at: time });
/** Opens a session that lives `seconds`. */
export const createScanSession = pgQuery<[id: string, userId: number, claimTokenHash: Buffer, seconds: number], typeof Created>(
  'scan_session_create',
  Created,
);
const Session = z.object({
  id: z.string(),
  user_id: z.number().int(),
  claimed_at: time.nullable(),
  completed_at: time.nullable(),
  created_at: time,
  expires_at: time,
  last_seq: z.number().int(),
  expired: z.boolean(),
});
export type ScanSessionRow = z.infer<typeof Session>;
/** A session of this owner. */
export const scanSessionOfOwner = pgQuery<[id: string, userId: number], typeof Session>('scan_session_of_owner', Session);
const Claimed = z.object({ id: z.string(), user_id: z.number().int(), expires_at: time });
/** Claims a session with its one-time token, handing it the device token. */
export const claimScanSession = pgQuery<[id: string, claimTokenHash: Buffer, deviceTokenHash: Buffer], typeof Claimed>(
  'scan_session_claim',
  Claimed,
);
const ClaimState = z.object({ claimed: z.boolean(), over: z.boolean() });
/** Whether a session was claimed or is over (why a claim failed). */
export const scanSessionClaimState = pgQuery<[id: string], typeof ClaimState>('scan_session_claim_state', ClaimState);
const OfDevice = z.object({ id: z.string(), user_id: z.number().int(), completed: z.boolean(), expired: z.boolean() });
/** The session a device token opens. */
export const scanSessionOfDevice = pgQuery<[id: string, deviceTokenHash: Buffer], typeof OfDevice>('scan_session_of_device', OfDevice);
const Completed = z.object({ completed_at: time });
/** Closes a live session. */
export const completeScanSession = pgQuery<[id: string], typeof Completed>('scan_session_complete', Completed);
const Appended = z.object({ seq: z.number().int(), created_at: time });
/** Appends an event. */
export const appendScanSessionEvent = pgQuery<[id: string, type: string, payload: string], typeof Appended>(
  'scan_session_event_append',
  Appended,
);
const Event = z.object({ seq: z.number().int(), type: z.string(), payload: z.unknown(), created_at: time });
export type ScanSessionEventRow = z.infer<typeof Event>;
/** Events after `seq`, in order. */
export const scanSessionEventsAfter = pgQuery<[id: string, seq: number], typeof Event>('scan_session_events_after', Event);
