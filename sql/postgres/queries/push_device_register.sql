-- Registers a push token for an account; a token already registered moves to it (a phone changes hands).
INSERT INTO push_devices (user_id, platform, token) VALUES ($1, $2, $3)
ON CONFLICT (token) DO UPDATE SET user_id = excluded.user_id, platform = excluded.platform, last_seen_at = now()
RETURNING id
