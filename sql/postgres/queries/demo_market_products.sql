-- A game's cards with their finishes and print runs: what the local market quotes per card.
SELECT c.id AS card_id, c.external_key, c.rarity,
       array_agg(DISTINCT v.finish) AS finishes, array_agg(DISTINCT p.print_run) AS print_runs
FROM cards c JOIN games g ON g.id = c.game_id JOIN printings p ON p.card_id = c.id JOIN variants v ON v.printing_id = p.id
WHERE g.slug = $1
GROUP BY c.id
ORDER BY c.id
