-- How many open listings the browse filters match (same filters as listings_browse.sql).
SELECT count(*)::int AS n
FROM listings l
JOIN cards c ON c.id = l.card_id
JOIN games g ON g.id = c.game_id
WHERE l.status = 'active' AND l.expires_at > now()
  AND ($1::text IS NULL OR g.slug = $1)
  AND ($2::numeric IS NULL OR l.price >= $2)
  AND ($3::numeric IS NULL OR l.price <= $3)
  AND ($4::text IS NULL OR l.condition = $4)
