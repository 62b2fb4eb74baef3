-- Cards added to the catalogue since $1 (newest first), optionally of one game ($2). $3 limit.
SELECT c.id, c.set_id AS card_set_id, c.name, c.collector_number AS number, c.rarity, c.card_type,
       (SELECT i.source_url FROM images i WHERE i.card_id = c.id ORDER BY (i.kind = 'large') DESC, i.id LIMIT 1) AS image_url,
       c.attributes, s.name AS set_name, s.code AS set_code, g.slug AS tcg_slug, b.best_price::float8 AS best_price,
       to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
       count(*) OVER ()::int AS total
FROM cards c
JOIN sets s ON s.id = c.set_id
JOIN games g ON g.id = c.game_id
LEFT JOIN card_best_prices b ON b.card_id = c.id
WHERE c.created_at >= $1::timestamptz AND ($2::text IS NULL OR g.slug = $2)
ORDER BY c.created_at DESC, c.id DESC
LIMIT $3
