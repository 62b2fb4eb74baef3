-- A game's variants with what the demo price model and the feed server need: the card's upstream
-- key, name, number and set name, and the variant's printing, finish, print run, rarity and year.
SELECT v.id AS variant_id, c.id AS card_id, p.id AS printing_id, g.slug AS game, c.external_key, c.name AS card_name,
       c.collector_number AS number, s.name AS set_name, c.rarity, v.finish, p.print_run,
       extract(year FROM s.release_date)::int AS year
FROM variants v JOIN printings p ON p.id = v.printing_id JOIN cards c ON c.id = p.card_id
JOIN sets s ON s.id = c.set_id JOIN games g ON g.id = c.game_id
WHERE g.slug = $1
ORDER BY c.id, p.id, v.id
