-- Registers a push token for an account (a Web Push endpoint with its keys); a token already
-- registered moves to it (a phone changes hands) and is enabled again.
INSERT INTO push_devices (user_id, platform, token, p256dh, auth_secret) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (token) DO UPDATE
SET user_id = excluded.user_id, platform = excluded.platform, p256dh = excluded.p256dh, auth_secret = excluded.auth_secret,
    last_seen_at = now(), disabled_at = NULL, disabled_why = NULL
RETURNING id
