-- How many open listings the browse filters match (same filters as listings_browse.sql).
SELECT count(*)::int AS n
FROM listings l
WHERE l.status = 'active' AND l.expires_at > now()
  AND ($1::text IS NULL OR l.game_id = (SELECT id FROM games WHERE slug = $1))
  AND ($2::numeric IS NULL OR l.price >= $2)
  AND ($3::numeric IS NULL OR l.price <= $3)
  AND ($4::text IS NULL OR l.condition = $4)
