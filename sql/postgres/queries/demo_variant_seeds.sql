-- Every variant with what the demo price model seeds it from: game, rarity, finish, print run, release year.
SELECT v.id AS variant_id, c.id AS card_id, g.slug AS game, c.rarity, v.finish, p.print_run,
       extract(year FROM s.release_date)::int AS year
FROM variants v JOIN printings p ON p.id = v.printing_id JOIN cards c ON c.id = p.card_id
JOIN sets s ON s.id = c.set_id JOIN games g ON g.id = c.game_id
ORDER BY v.id
