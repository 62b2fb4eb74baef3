-- The checkout session that paid for a transaction, and its refund if there is one.
SELECT id, payment_intent, refund_id, amount_cents FROM checkout_sessions
WHERE transaction_id = $1 AND completed_at IS NOT NULL
ORDER BY completed_at
LIMIT 1
