-- Opens a scan session for its owner.
INSERT INTO scan_sessions (id, user_id, counted, expires_at)
VALUES ($1, $2, $3, now() + make_interval(secs => $4))
RETURNING id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at, to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS expires_at
