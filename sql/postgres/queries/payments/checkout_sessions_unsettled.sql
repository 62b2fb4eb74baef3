-- A transaction's checkout sessions that may still be paid (to expire at Stripe before it is cancelled).
SELECT id FROM checkout_sessions
WHERE transaction_id = $1 AND completed_at IS NULL AND expired_at IS NULL AND expires_at > now()
