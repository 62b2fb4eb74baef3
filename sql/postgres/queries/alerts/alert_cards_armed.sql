-- The cards among $1 that have an armed alert (most loads price thousands of cards, few watched).
SELECT DISTINCT card_id FROM price_alerts WHERE is_active AND triggered_at IS NULL AND card_id = ANY ($1::int[])
