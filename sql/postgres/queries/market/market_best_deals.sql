-- Cards offered well below their market price: for each card's reference variant, the lowest
-- current US `low` price of any source against the card's reference (market) price; at least $1
-- market and {min discount} percent off. $1 game slug or NULL, $2 minimum discount in percent,
-- $3 limit.
SELECT c.id AS card_id, c.name, s.name AS set_name, g.slug AS tcg_slug, v.finish, p.print_run,
       b.best_price::float8 AS market_price, l.amount::float8 AS lowest_price, l.source, l.as_of::text AS as_of,
       round((1 - l.amount / b.best_price) * 100, 2)::float8 AS discount_pct
FROM card_best_prices b
JOIN cards c ON c.id = b.card_id
JOIN sets s ON s.id = c.set_id
JOIN games g ON g.id = c.game_id
JOIN variants v ON v.id = b.variant_id
JOIN printings p ON p.id = v.printing_id
JOIN LATERAL (
  SELECT x.amount, x.source, x.as_of FROM variant_prices_latest x
  WHERE x.variant_id = b.variant_id AND x.region = 'us' AND x.price_type = 'low' AND x.grading_company = 'raw'
    AND x.currency = 'USD' AND x.as_of >= b.as_of - 7
  ORDER BY x.amount LIMIT 1
) l ON true
WHERE b.best_price >= 1 AND ($1::text IS NULL OR g.slug = $1)
  AND l.amount <= b.best_price * (1 - $2::numeric / 100)
ORDER BY discount_pct DESC, c.id
LIMIT $3
