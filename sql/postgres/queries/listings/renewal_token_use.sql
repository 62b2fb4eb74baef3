-- Uses a renewal token once: its listing when it was unused and in time, none otherwise.
UPDATE listing_renewal_tokens SET used_at = now()
WHERE nonce_sha256 = $1 AND listing_id = $2 AND used_at IS NULL AND expires_at > now()
RETURNING listing_id AS id
