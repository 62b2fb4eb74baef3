-- An armed alert of the user on the same card, direction, target and currency, if any.
SELECT id FROM price_alerts
WHERE user_id = $1 AND card_id = $2 AND condition = $3 AND target_price = $4 AND currency = $5 AND is_active AND triggered_at IS NULL
LIMIT 1
