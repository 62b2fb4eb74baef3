-- How many of game $1's sets changed after $2 (v2_sets_of_game.sql's filter).
SELECT count(*)::int AS n
FROM sets s
WHERE s.game_id = $1
  AND GREATEST(s.updated_at, (SELECT max(c.updated_at) FROM cards c WHERE c.set_id = s.id)) > $2::timestamptz
