-- A push to every enabled device of an account ($1), in the caller's transaction; their ids.
INSERT INTO push_outbox (device_id, title, body, data)
SELECT id, $2, $3, $4::jsonb FROM push_devices WHERE user_id = $1 AND disabled_at IS NULL
RETURNING id
