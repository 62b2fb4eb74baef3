-- What a recognition answer says about each candidate card.
SELECT c.id AS card_id, c.name, c.collector_number, s.code AS set_code, s.name AS set_name, g.slug AS game
FROM cards c
JOIN sets s ON s.id = c.set_id
JOIN games g ON g.id = c.game_id
WHERE c.id = ANY ($1::int[])
