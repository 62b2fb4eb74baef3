-- Every variant of the given cards with its game, printing and print run, in printing order.
SELECT c.id AS card_id, g.slug AS game, p.id AS printing_id, p.print_run, v.id AS variant_id, v.finish
FROM cards c JOIN games g ON g.id = c.game_id JOIN printings p ON p.card_id = c.id JOIN variants v ON v.printing_id = p.id
WHERE c.id = ANY ($1)
ORDER BY p.id, v.id
