-- For an evolution chain: one card per name within a game ($1), preferring the set $2, then the
-- earliest. $3 lower-cased names.
SELECT DISTINCT ON (lower(c.name)) c.id, c.name, c.attributes
FROM cards c
WHERE c.game_id = $1 AND lower(c.name) = ANY ($3::text[])
ORDER BY lower(c.name), (c.set_id = $2) DESC, c.id
