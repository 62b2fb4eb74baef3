-- Ends a session (once).
UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL
