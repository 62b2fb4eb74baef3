-- A digest's lines: alerts triggered in the last 24 hours and armed ones, with each card's best price now.
SELECT c.name AS card_name, a.condition, a.target_price::float8 AS target_price, a.currency,
       CASE WHEN a.triggered_at > now() - interval '24 hours'
            THEN to_char(a.triggered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI "UTC"') END AS triggered_at,
       b.best_price::float8 AS best_price
FROM price_alerts a JOIN cards c ON c.id = a.card_id LEFT JOIN card_best_prices b ON b.card_id = a.card_id
WHERE a.user_id = $1 AND (a.triggered_at IS NULL AND a.is_active OR a.triggered_at > now() - interval '24 hours')
ORDER BY a.id
