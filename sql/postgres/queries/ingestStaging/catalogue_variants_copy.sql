-- Every variant with its card, game, printing and print run, as TabSeparated for the ClickHouse
-- copy (catalogue_variants); the version comes from the same snapshot as the rows.
COPY (
  SELECT cv.version, c.id, g.slug, p.id, p.print_run, v.id, v.finish
  FROM cards c JOIN games g ON g.id = c.game_id JOIN printings p ON p.card_id = c.id JOIN variants v ON v.printing_id = p.id
  CROSS JOIN catalogue_version cv
) TO STDOUT
