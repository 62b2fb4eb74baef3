-- Closes a live session; an already closed one is left as it is.
UPDATE scan_sessions SET completed_at = now() WHERE id = $1 AND completed_at IS NULL AND expires_at > now()
RETURNING to_char(completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS completed_at
