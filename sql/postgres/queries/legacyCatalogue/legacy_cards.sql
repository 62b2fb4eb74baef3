-- Cards of one game for the legacy listing: filters AND together; collector-number order within
-- a set, newest set first. $1 slug, $2 set id, $3 rarity (case-insensitive), $4 name substring,
-- $5 limit, $6 offset. The name is text, not a LIKE pattern: its \, % and _ are escaped.
SELECT c.id, c.set_id AS card_set_id, c.name, c.collector_number AS number, c.rarity, c.card_type,
       (SELECT i.source_url FROM images i WHERE i.card_id = c.id ORDER BY (i.kind = 'large') DESC, i.id LIMIT 1) AS image_url,
       c.attributes, count(*) OVER ()::int AS total
FROM cards c JOIN games g ON g.id = c.game_id JOIN sets s ON s.id = c.set_id
WHERE g.slug = $1
  AND ($2::int IS NULL OR c.set_id = $2)
  AND ($3::text IS NULL OR lower(c.rarity) = lower($3))
  AND ($4::text IS NULL OR lower(c.name) LIKE '%' || replace(replace(replace(lower($4), '\', '\\'), '%', '\%'), '_', '\_') || '%')
ORDER BY s.release_date DESC NULLS LAST, s.id DESC,
         NULLIF(substring(c.collector_number FROM '\d+'), '')::numeric NULLS LAST, c.collector_number, c.id
LIMIT $5 OFFSET $6
