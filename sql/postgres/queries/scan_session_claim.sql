-- The claim token works once, before the session expires: it becomes the phone's device token.
UPDATE scan_sessions SET claimed_at = now(), device_token_hash = $3
WHERE id = $1 AND claim_token_hash = $2 AND claimed_at IS NULL AND completed_at IS NULL AND expires_at > now()
RETURNING id, user_id, to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS expires_at
