-- Games that have cards, with their card and set counts, largest first.
SELECT * FROM (
  SELECT g.slug, g.name, g.active,
         (SELECT count(*) FROM cards c WHERE c.game_id = g.id)::int AS cards,
         (SELECT count(*) FROM sets s WHERE s.game_id = g.id)::int AS sets
  FROM games g
) x
WHERE cards > 0
ORDER BY cards DESC, slug
