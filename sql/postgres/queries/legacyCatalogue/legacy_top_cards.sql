-- The dearest cards by reference price (USD), of one set ($1) or across the catalogue (NULL),
-- optionally of one game ($2). $3 limit.
SELECT c.id AS card_id, c.set_id AS card_set_id, c.name, c.collector_number AS number, c.rarity, c.card_type,
       (SELECT i.source_url FROM images i WHERE i.card_id = c.id ORDER BY (i.kind = 'large') DESC, i.id LIMIT 1) AS image_url,
       c.attributes, s.name AS set_name, s.code AS set_code, g.slug AS tcg_slug, b.best_price::float8 AS best_price,
       to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at
FROM card_best_prices b
JOIN cards c ON c.id = b.card_id
JOIN sets s ON s.id = c.set_id
JOIN games g ON g.id = c.game_id
WHERE ($1::int IS NULL OR c.set_id = $1) AND ($2::text IS NULL OR g.slug = $2)
ORDER BY b.best_price DESC, c.id
LIMIT $3
