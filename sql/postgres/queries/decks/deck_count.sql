-- How many decks a user has.
SELECT count(*)::int AS n FROM decks WHERE user_id = $1
