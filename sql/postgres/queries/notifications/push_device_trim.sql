-- Keeps an account's $2 most recently seen devices and drops the rest.
DELETE FROM push_devices
WHERE user_id = $1 AND id NOT IN (SELECT id FROM push_devices WHERE user_id = $1 ORDER BY last_seen_at DESC LIMIT $2)
RETURNING id
