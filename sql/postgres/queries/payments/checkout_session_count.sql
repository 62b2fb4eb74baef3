-- How many checkout sessions a transaction has had (the next one's idempotency key).
SELECT count(*)::int AS n FROM checkout_sessions WHERE transaction_id = $1
