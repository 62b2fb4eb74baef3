-- A push ended: sent, failed for good, or not sendable (no credentials for its platform).
UPDATE push_outbox SET state = $2, ended_at = now(), claimed_until = NULL, last_error = $3 WHERE id = $1
