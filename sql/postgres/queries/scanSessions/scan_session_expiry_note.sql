-- Writes a session's `expired` event once, when it ran out before it was completed.
WITH next AS (
  UPDATE scan_sessions SET last_seq = last_seq + 1, expiry_noted = true
  WHERE id = $1 AND NOT expiry_noted AND completed_at IS NULL AND expires_at <= now()
  RETURNING last_seq, expires_at
)
INSERT INTO scan_session_events (session_id, seq, type, payload)
SELECT $1, last_seq, 'expired', jsonb_build_object('expires_at', to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) FROM next
RETURNING seq, type, payload, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
