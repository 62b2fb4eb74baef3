-- The live session a phone's device token opens.
SELECT id, user_id, completed_at IS NOT NULL AS completed, expires_at <= now() AS expired
FROM scan_sessions WHERE id = $1 AND device_token_hash = $2
