-- The names a collection's figures show: of cards ($1), sets ($2) and games ($3, their slugs),
-- with what each one is.
SELECT 'card' AS kind, id, name FROM cards WHERE id = ANY ($1::int[])
UNION ALL
SELECT 'set', id, name FROM sets WHERE id = ANY ($2::int[])
UNION ALL
SELECT 'game', id, slug FROM games WHERE id = ANY ($3::int[])
