-- Sellers with open listings, those with the most first.
SELECT u.username, coalesce(u.display_name, u.username) AS display_name, u.country, count(*)::int AS active_listings,
       to_char(max(l.created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS newest_listing_at
FROM listings l
JOIN users u ON u.id = l.seller_id
WHERE l.status = 'active' AND l.expires_at > now() AND u.deleted_at IS NULL
GROUP BY u.id
ORDER BY active_listings DESC, max(l.created_at) DESC
LIMIT $1
