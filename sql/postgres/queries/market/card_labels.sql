-- Name, set and game of the given cards, for lists computed in ClickHouse.
SELECT c.id AS card_id, c.name, s.name AS set_name, s.code AS set_code, g.slug AS tcg_slug, c.rarity
FROM cards c JOIN sets s ON s.id = c.set_id JOIN games g ON g.id = c.game_id
WHERE c.id = ANY ($1::int[])
