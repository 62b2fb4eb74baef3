-- How many price alerts an account has.
SELECT count(*)::int AS n FROM price_alerts WHERE user_id = $1
