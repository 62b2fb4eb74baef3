-- The effective deletion: keys and sessions go, the row stays anonymised (others' rows keep a counterpart).
WITH gone AS (DELETE FROM api_keys WHERE user_id = $1), s AS (DELETE FROM sessions WHERE user_id = $1)
UPDATE users SET username = 'deleted-' || id, email = NULL, password_hash = NULL, display_name = NULL, country = NULL,
                 is_seller = false, deleted_at = now()
WHERE id = $1
