-- One card for the legacy surface, with where it lives. $1 card id, $2 game slug or NULL.
SELECT c.id, c.set_id AS card_set_id, c.name, c.collector_number AS number, c.rarity, c.card_type,
       (SELECT i.source_url FROM images i WHERE i.card_id = c.id ORDER BY (i.kind = 'large') DESC, i.id LIMIT 1) AS image_url,
       c.attributes, coalesce(c.master_card_id, c.id) AS master_card_id, c.artist AS illustrator, c.legalities,
       s.name AS set_name, s.code AS set_code, g.slug AS tcg_slug,
       b.best_price::float8 AS best_price
FROM cards c JOIN games g ON g.id = c.game_id JOIN sets s ON s.id = c.set_id
LEFT JOIN card_best_prices b ON b.card_id = c.id
WHERE c.id = ANY ($1::int[]) AND ($2::text IS NULL OR g.slug = $2)
