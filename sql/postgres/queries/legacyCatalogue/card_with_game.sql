-- A card with its game, for the evolution chain (only Pokémon cards have one).
SELECT c.id, c.name, c.attributes, c.game_id, c.set_id, g.slug AS game, c.card_type
FROM cards c JOIN games g ON g.id = c.game_id
WHERE c.id = $1
