-- Closes a live session and writes its `completed` event, in one statement; a closed one is left as it is.
WITH done AS (
  UPDATE scan_sessions SET completed_at = now(), last_seq = last_seq + 1
  WHERE id = $1 AND completed_at IS NULL AND expires_at > now()
  RETURNING last_seq, completed_at
)
INSERT INTO scan_session_events (session_id, seq, type, payload)
SELECT $1, last_seq, 'completed', jsonb_build_object('completed_at', to_char(completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) FROM done
RETURNING seq, type, payload, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
