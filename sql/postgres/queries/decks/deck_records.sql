-- Decks as their readers see them, with card counts and value (USD, each card's reference price):
-- the given ids ($1), or a user's own ($2), or the public ones of a game ($3, any game when NULL),
-- newest first.
SELECT d.id, d.user_id, u.username AS owner, d.name, g.slug AS tcg_slug, d.format, d.is_public,
       coalesce(sum(dc.quantity), 0)::int AS card_count,
       round(coalesce(sum(dc.quantity * b.best_price), 0), 2)::float8 AS value,
       to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
       to_char(d.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS updated_at
FROM decks d
JOIN users u ON u.id = d.user_id
JOIN games g ON g.id = d.game_id
LEFT JOIN deck_cards dc ON dc.deck_id = d.id
LEFT JOIN card_best_prices b ON b.card_id = dc.card_id
WHERE ($1::int[] IS NULL OR d.id = ANY ($1::int[]))
  AND ($2::int IS NULL OR d.user_id = $2)
  AND ($3::boolean IS NOT TRUE OR (d.is_public AND ($4::text IS NULL OR g.slug = $4)))
GROUP BY d.id, u.username, g.slug
ORDER BY d.id DESC
LIMIT $5 OFFSET $6
