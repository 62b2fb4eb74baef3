-- Seconds until the next waiting push is due (0 when one is due now); NULL when none waits.
SELECT greatest(0, extract(epoch FROM min(next_attempt_at) - now()))::float8 AS seconds
FROM push_outbox WHERE state = 'pending'
