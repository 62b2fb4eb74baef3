-- A session's events after a sequence number, in order (SSE replay after Last-Event-ID).
SELECT seq, type, payload, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at FROM scan_session_events WHERE session_id = $1 AND seq > $2 ORDER BY seq LIMIT 500
