-- The transaction's newest checkout session still open for at least $2 seconds, if any.
SELECT id, url FROM checkout_sessions
WHERE transaction_id = $1 AND completed_at IS NULL AND expired_at IS NULL AND expires_at > now() + make_interval(secs => $2)
ORDER BY created_at DESC
LIMIT 1
