-- Deletes a user's deck; its id when it was theirs.
DELETE FROM decks WHERE id = $1 AND user_id = $2 RETURNING id
