-- The watched cards of a game (the completed-auctions feed is read per card).
SELECT w.card_id
FROM auction_watchlist w JOIN cards c ON c.id = w.card_id JOIN games g ON g.id = c.game_id
WHERE g.slug = $1
ORDER BY w.card_id
