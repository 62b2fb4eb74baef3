-- Moves a transaction awaiting payment to paid, on the payment provider's word ($2 names it).
WITH moved AS (
  UPDATE transactions SET status = 'paid', updated_at = now() WHERE id = $1 AND status = 'awaiting_payment' RETURNING id
)
INSERT INTO transaction_events (transaction_id, actor_id, from_status, to_status, source)
SELECT id, NULL, 'awaiting_payment', 'paid', $2 FROM moved
RETURNING transaction_id AS id
