-- Makes an account a seller with its display name and country (also one registered as a seller
-- without them), and gives it an extended profile; nothing when it already is a complete seller
-- or is deleted. Its id when it became one.
WITH became AS (
  UPDATE users SET is_seller = true, display_name = $2, country = $3
  WHERE id = $1 AND deleted_at IS NULL AND (NOT is_seller OR display_name IS NULL OR country IS NULL)
  RETURNING id
)
INSERT INTO seller_profiles (user_id)
SELECT id FROM became
ON CONFLICT (user_id) DO UPDATE SET updated_at = now()
RETURNING user_id AS id
