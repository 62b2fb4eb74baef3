-- A push that failed for now: tried again after $3 seconds, or failed for good after $4 attempts.
UPDATE push_outbox
SET state = CASE WHEN attempts >= $4 THEN 'failed' ELSE 'pending' END,
    ended_at = CASE WHEN attempts >= $4 THEN now() END,
    next_attempt_at = now() + make_interval(secs => $3),
    claimed_until = NULL,
    last_error = $2
WHERE id = $1
