-- A live account by its username.
SELECT id FROM users WHERE username = $1 AND deleted_at IS NULL
