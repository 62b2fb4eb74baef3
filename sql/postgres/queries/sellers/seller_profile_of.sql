-- A seller's profile: the account's name and country with its extended profile (empty until
-- written: an account registered as a seller has none yet).
SELECT u.id AS user_id, u.username, coalesce(u.display_name, u.username) AS display_name, u.country,
       p.bio, p.location, p.shipping_policy, p.return_policy, p.website, p.marketplace_username,
       to_char(u.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS member_since
FROM users u
LEFT JOIN seller_profiles p ON p.user_id = u.id
WHERE u.id = $1 AND u.is_seller AND u.deleted_at IS NULL
