-- A recognition its user may confirm (another user's is not found).
SELECT id, card_id FROM recognitions WHERE id = $1 AND user_id = $2
