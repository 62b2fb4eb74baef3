-- A deck's owner and game, locked for the rest of the transaction.
SELECT d.id, d.user_id, d.game_id FROM decks d WHERE d.id = $1 FOR UPDATE
