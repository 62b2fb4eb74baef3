-- Removes an own device by its token; no row when the token is not the account's.
DELETE FROM push_devices WHERE token = $1 AND user_id = $2 RETURNING id
