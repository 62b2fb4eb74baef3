-- The session a phone's device token opens, with what its quota needs.
SELECT s.id, s.user_id, u.tier, s.counted, s.completed_at IS NOT NULL AS completed, s.expires_at <= now() AS expired
FROM scan_sessions s JOIN users u ON u.id = s.user_id
WHERE s.id = $1 AND s.device_token_hash = $2
