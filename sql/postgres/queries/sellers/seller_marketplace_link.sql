-- Links a seller's username on an outside marketplace (stock imports name their rows by it).
INSERT INTO seller_profiles (user_id, marketplace_username, marketplace_linked_at)
SELECT id, $2, now() FROM users WHERE id = $1 AND is_seller AND deleted_at IS NULL
ON CONFLICT (user_id) DO UPDATE
  SET marketplace_username = EXCLUDED.marketplace_username, marketplace_linked_at = now(), updated_at = now()
RETURNING user_id AS id
