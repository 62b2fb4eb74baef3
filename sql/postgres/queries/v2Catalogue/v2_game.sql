-- One game by slug, with its card and set counts.
SELECT g.id, g.slug, g.name, g.active,
       (SELECT count(*) FROM cards c WHERE c.game_id = g.id)::int AS cards,
       (SELECT count(*) FROM sets s WHERE s.game_id = g.id)::int AS sets
FROM games g
WHERE g.slug = $1
