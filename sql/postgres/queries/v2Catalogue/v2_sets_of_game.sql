-- A page of a game's sets, newest first; with $4, only sets that changed after it (the set's own
-- fields or any of its cards: a client syncing a game visits only those sets).
SELECT id, code, name, series, release_date, total_cards, card_count, is_promo, language,
       to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS updated_at
FROM (
  SELECT s.id, s.code, s.name, s.series, s.release_date::text AS release_date, s.total_cards, s.release_date AS released,
         (SELECT count(*) FROM cards c WHERE c.set_id = s.id)::int AS card_count, s.is_promo, s.language,
         GREATEST(s.updated_at, (SELECT max(c.updated_at) FROM cards c WHERE c.set_id = s.id)) AS updated_at
  FROM sets s
  WHERE s.game_id = $1
) s
WHERE $4::timestamptz IS NULL OR s.updated_at > $4::timestamptz
ORDER BY s.released DESC NULLS LAST, s.id DESC
LIMIT $2 OFFSET $3
