-- A checkout session and what it charges, locked for the rest of the transaction.
SELECT id, transaction_id, amount_cents, currency, completed_at IS NOT NULL AS completed
FROM checkout_sessions WHERE id = $1 FOR UPDATE
