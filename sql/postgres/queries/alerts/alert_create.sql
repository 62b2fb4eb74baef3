-- A new price alert; its id.
INSERT INTO price_alerts (user_id, card_id, target_price, condition, currency) VALUES ($1, $2, $3, $4, $5) RETURNING id
