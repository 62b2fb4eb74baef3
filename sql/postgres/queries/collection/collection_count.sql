-- How many entries of a user's collection match (optionally of one game).
SELECT count(*)::int AS n
FROM collection_entries e
JOIN cards c ON c.id = e.card_id
JOIN games g ON g.id = c.game_id
WHERE e.user_id = $1 AND ($2::text IS NULL OR g.slug = $2)
