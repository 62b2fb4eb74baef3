-- What a card's marketplace links are built from: its names, and the EU and US marketplaces'
-- product ids (card-level references first).
SELECT c.name, c.collector_number AS number, s.name AS set_name, g.slug AS game, g.name AS game_name,
       (SELECT ref_value FROM cross_refs r WHERE r.card_id = c.id AND r.ref_key = 'eu_marketplace_product_id' ORDER BY printing_id NULLS FIRST LIMIT 1) AS eu,
       (SELECT ref_value FROM cross_refs r WHERE r.card_id = c.id AND r.ref_key = 'us_marketplace_product_id' ORDER BY printing_id NULLS FIRST LIMIT 1) AS us
FROM cards c JOIN sets s ON s.id = c.set_id JOIN games g ON g.id = c.game_id
WHERE c.id = $1
