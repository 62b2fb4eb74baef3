-- Deletes an own endpoint; a row when it was the account's.
DELETE FROM webhook_endpoints WHERE id = $1 AND user_id = $2 RETURNING id
