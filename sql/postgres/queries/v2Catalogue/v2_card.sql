-- One card with its game and set.
SELECT c.id, c.name, c.collector_number, c.rarity, c.card_type, g.slug AS game_slug, g.name AS game_name,
       s.id AS set_id, s.code AS set_code, s.name AS set_name
FROM cards c JOIN sets s ON s.id = c.set_id JOIN games g ON g.id = c.game_id
WHERE c.id = $1
