// Shapes a scan session (scanSessions.ts) into the response (schemas/recognition.ts): its state,
// and the claim URL and token only when the service gave them (to the session's creator, once).
import type { z } from 'zod';
import type { ScanSessionOut } from '../../schemas/recognition.js';
import { stateOf, type ScanSession } from './scanSessions.js';

export function presentScanSession({ row, secrets }: ScanSession): z.input<typeof ScanSessionOut> {
  return {
    id: row.id,
    state: stateOf(row),
    created_at: row.created_at,
    expires_at: row.expires_at,
    claimed_at: row.claimed_at,
    completed_at: row.completed_at,
    events: row.last_seq,
    claim_url: secrets?.claim_url ?? null,
    claim_token: secrets?.claim_token ?? null,
  };
}
