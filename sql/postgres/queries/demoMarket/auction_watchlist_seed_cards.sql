-- Seeds an empty auction watchlist with the given cards; a list someone keeps is left alone.
INSERT INTO auction_watchlist (card_id, reason)
SELECT id, 'demo: most valuable card by the demo price model'
FROM unnest($1::int[]) AS id
WHERE NOT EXISTS (SELECT 1 FROM auction_watchlist)
ON CONFLICT (card_id) DO NOTHING
