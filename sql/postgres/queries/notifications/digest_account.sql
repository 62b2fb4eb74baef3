-- One account a digest-now goes to (none: deleted or without an address).
SELECT id, username, email FROM users WHERE id = $1 AND email IS NOT NULL AND deleted_at IS NULL
