-- An account's price alerts, oldest first.
SELECT id, card_id, card_name, target_price, condition, currency, is_active, triggered_at, created_at
FROM price_alert_records WHERE user_id = $1 ORDER BY id
