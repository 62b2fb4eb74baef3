-- Keeps a renewal token's digest until it is used or expires.
INSERT INTO listing_renewal_tokens (nonce_sha256, listing_id, expires_at) VALUES ($1, $2, $3)
