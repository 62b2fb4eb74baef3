-- A user's wishlist, newest first, with each card's reference price (USD, card_best_prices).
SELECT w.id, w.card_id, c.name AS card_name, g.slug AS tcg_slug, s.name AS set_name,
       w.max_price::float8 AS max_price, b.best_price::float8 AS current_price,
       to_char(w.added_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS added_at,
       to_char(w.notified_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS notified_at
FROM wishlist_items w
JOIN cards c ON c.id = w.card_id
JOIN games g ON g.id = c.game_id
JOIN sets s ON s.id = c.set_id
LEFT JOIN card_best_prices b ON b.card_id = w.card_id
WHERE w.user_id = $1 AND ($2::int IS NULL OR w.id = $2)
ORDER BY w.id DESC
