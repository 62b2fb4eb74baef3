-- A new webhook endpoint (its signing secret sealed); its id.
INSERT INTO webhook_endpoints (user_id, url, description, secret_enc, secret_prefix, events, card_ids)
VALUES ($1, $2, $3, $4, $5, $6, $7)
RETURNING id
