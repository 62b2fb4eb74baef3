-- A new sealed signing secret for an own endpoint.
UPDATE webhook_endpoints SET secret_enc = $3, secret_prefix = $4 WHERE id = $1 AND user_id = $2 RETURNING id
