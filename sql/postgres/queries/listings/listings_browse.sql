-- A page of open listings, cheapest first, with the filters that are set ($1 game slug, $2 and $3
-- EUR bounds, $4 condition); $5 limit, $6 offset.
WITH page AS (
  SELECT l.id
  FROM listings l
  WHERE l.status = 'active' AND l.expires_at > now()
    AND ($1::text IS NULL OR l.game_id = (SELECT id FROM games WHERE slug = $1))
    AND ($2::numeric IS NULL OR l.price >= $2)
    AND ($3::numeric IS NULL OR l.price <= $3)
    AND ($4::text IS NULL OR l.condition = $4)
  ORDER BY l.price, l.id
  LIMIT $5 OFFSET $6
)
SELECT r.* FROM page JOIN listing_records r ON r.id = page.id ORDER BY r.price, r.id
