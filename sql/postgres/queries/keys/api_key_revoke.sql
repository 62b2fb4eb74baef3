-- Revokes an own key; a row when it was the account's and live.
UPDATE api_keys SET revoked_at = now(), is_active = false
WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL
RETURNING id
