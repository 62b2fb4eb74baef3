-- Keeps a checkout session Stripe created for a transaction.
INSERT INTO checkout_sessions (id, transaction_id, url, amount_cents, currency, expires_at)
VALUES ($1, $2, $3, $4, $5, $6)
