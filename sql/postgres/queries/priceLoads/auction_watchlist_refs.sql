-- The pokemontcg.io ids of a game's watched cards, with the words a sold-items search for the card
-- uses (its name, collector number and set name): the auction feed searches once per card.
SELECT substr(c.external_key, 12) AS ref, c.name, c.collector_number AS number, s.name AS set_name
FROM auction_watchlist w JOIN cards c ON c.id = w.card_id JOIN games g ON g.id = c.game_id
JOIN sets s ON s.id = c.set_id
WHERE g.slug = $1 AND c.external_key LIKE 'pokemontcg:%'
ORDER BY c.id
