-- Appends an event with the session's next sequence number (the row lock orders concurrent appends).
WITH next AS (UPDATE scan_sessions SET last_seq = last_seq + 1 WHERE id = $1 RETURNING last_seq)
INSERT INTO scan_session_events (session_id, seq, type, payload)
SELECT $1, last_seq, $2, $3 FROM next
RETURNING seq, type, payload, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
