-- A new deck of a game (by slug); its id, none when there is no such game.
INSERT INTO decks (user_id, game_id, name, format, is_public)
SELECT $1, g.id, $3, $4, $5 FROM games g WHERE g.slug = $2
RETURNING id
