-- A game's cards with names, numbers, set names and print runs, for the graded price guide.
SELECT c.external_key AS ext, c.name, c.collector_number AS number, c.rarity, s.name AS set_name, array_agg(DISTINCT p.print_run) AS print_runs
FROM cards c JOIN games g ON g.id = c.game_id JOIN sets s ON s.id = c.set_id JOIN printings p ON p.card_id = c.id
WHERE g.slug = $1
GROUP BY c.id, s.name
ORDER BY c.id
