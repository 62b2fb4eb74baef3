-- One price alert as its owner sees it.
SELECT id, card_id, card_name, target_price, condition, currency, is_active, triggered_at, created_at
FROM price_alert_records WHERE id = $1
