-- Writes a seller's whole profile (the service merged the change into the current one).
WITH named AS (
  UPDATE users SET display_name = $2, country = $3 WHERE id = $1 AND is_seller RETURNING id
)
INSERT INTO seller_profiles (user_id, bio, location, shipping_policy, return_policy, website)
SELECT id, $4, $5, $6, $7, $8 FROM named
ON CONFLICT (user_id) DO UPDATE
  SET bio = EXCLUDED.bio, location = EXCLUDED.location, shipping_policy = EXCLUDED.shipping_policy,
      return_policy = EXCLUDED.return_policy, website = EXCLUDED.website, updated_at = now()
RETURNING user_id AS id
