-- A page of a game's sets, newest first.
SELECT s.id, s.code, s.name, s.series, s.release_date::text AS release_date, s.total_cards,
       (SELECT count(*) FROM cards c WHERE c.set_id = s.id)::int AS card_count, s.is_promo, s.language
FROM sets s
WHERE s.game_id = $1
ORDER BY s.release_date DESC NULLS LAST, s.id DESC
LIMIT $2 OFFSET $3
