-- Moves a transaction from $4 to $2, recording who ($3) and when.
WITH moved AS (UPDATE transactions SET status = $2, updated_at = now() WHERE id = $1 AND status = $4 RETURNING id)
INSERT INTO transaction_events (transaction_id, actor_id, from_status, to_status)
SELECT id, $3, $4, $2 FROM moved
RETURNING transaction_id AS id
