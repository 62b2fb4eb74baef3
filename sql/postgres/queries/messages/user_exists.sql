-- A live account by its id.
SELECT id FROM users WHERE id = $1 AND deleted_at IS NULL
