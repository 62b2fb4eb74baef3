-- One card of a game by upstream key, for its completed auction listings.
SELECT c.external_key AS ext, c.name, c.collector_number AS number, c.rarity, s.name AS set_name
FROM cards c JOIN games g ON g.id = c.game_id JOIN sets s ON s.id = c.set_id
WHERE g.slug = $1 AND c.external_key = $2
