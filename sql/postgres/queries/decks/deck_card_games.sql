-- The game of each given card (to keep a deck to its own game).
SELECT c.id AS card_id, c.game_id FROM cards c WHERE c.id = ANY ($1::int[])
