-- How many webhook endpoints an account has.
SELECT count(*)::int AS n FROM webhook_endpoints WHERE user_id = $1
