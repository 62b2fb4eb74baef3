-- Deletes an own alert; a row when it was the account's.
DELETE FROM price_alerts WHERE id = $1 AND user_id = $2 RETURNING id
