-- A new key (only its digest and a short prefix are stored); its id.
INSERT INTO api_keys (user_id, name, prefix, key_hash, tier, expires_at)
VALUES ($1, $2, $3, $4, $5, $6)
RETURNING id
