-- What anyone may see of an account: its name, since when, whether it sells, its avatar and
-- whether its collection is public (none for an unknown or deleted account).
SELECT id, username, display_name, is_seller, is_collection_public, avatar,
       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS member_since
FROM users WHERE username = $1 AND deleted_at IS NULL
