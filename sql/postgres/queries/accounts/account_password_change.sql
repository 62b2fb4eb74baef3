-- One statement: the new password hash and the end of every session of the account land together.
WITH changed AS (UPDATE users SET password_hash = $2 WHERE id = $1 RETURNING id)
UPDATE sessions SET revoked_at = now() WHERE user_id IN (SELECT id FROM changed) AND revoked_at IS NULL
