-- How many keys an account holds (not revoked).
SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL
