-- The pokemontcg.io ids of a game's watched cards (the completed-auctions feed is read per card).
SELECT substr(c.external_key, 12) AS ref
FROM auction_watchlist w JOIN cards c ON c.id = w.card_id JOIN games g ON g.id = c.game_id
WHERE g.slug = $1 AND c.external_key LIKE 'pokemontcg:%'
ORDER BY c.id
