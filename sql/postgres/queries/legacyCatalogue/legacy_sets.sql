-- One game's sets, newest first, with the total for paging. $1 game slug, $2 limit, $3 offset,
-- $4 one set id or NULL.
SELECT s.id, s.game_id AS tcg_id, s.name, s.code, s.release_date::text AS release_date,
       greatest(s.total_cards, (SELECT count(*) FROM cards c WHERE c.set_id = s.id))::int AS total_cards,
       s.logo_url, count(*) OVER ()::int AS total
FROM sets s JOIN games g ON g.id = s.game_id
WHERE g.slug = $1 AND ($4::int IS NULL OR s.id = $4)
ORDER BY s.release_date DESC NULLS LAST, s.id DESC
LIMIT $2 OFFSET $3
