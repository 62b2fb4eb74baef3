-- The claim works once, before the session ends: the phone's device token is set.
UPDATE scan_sessions SET claimed_at = now(), device_token_hash = $2
WHERE id = $1 AND claimed_at IS NULL AND completed_at IS NULL AND expires_at > now()
RETURNING id, user_id, to_char(claimed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS claimed_at, to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS expires_at
