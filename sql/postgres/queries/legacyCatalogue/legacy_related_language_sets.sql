-- Sets of the same game in other languages: same code, or same name and release date. $1 set id.
SELECT o.id, o.name, o.code, o.language, o.release_date::text AS release_date, o.total_cards
FROM sets s
JOIN sets o ON o.game_id = s.game_id AND o.id <> s.id AND o.language <> s.language
           AND (lower(o.code) = lower(s.code) OR (o.name = s.name AND o.release_date IS NOT DISTINCT FROM s.release_date))
WHERE s.id = $1
ORDER BY o.language, o.id
