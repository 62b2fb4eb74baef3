-- One page of a user's collection entry ids, newest first, optionally of one game; and how many
-- entries match in all.
SELECT e.id, count(*) OVER ()::int AS total
FROM collection_entries e
JOIN cards c ON c.id = e.card_id
JOIN games g ON g.id = c.game_id
WHERE e.user_id = $1 AND ($2::text IS NULL OR g.slug = $2)
ORDER BY e.id DESC
LIMIT $3 OFFSET $4
