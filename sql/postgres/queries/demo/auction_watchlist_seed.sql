-- Seeds an empty auction watchlist with the $1 cards of highest raw USD price; a list someone keeps is left alone.
INSERT INTO auction_watchlist (card_id, reason)
SELECT p.card_id, 'demo: most valuable raw USD price'
FROM variant_prices_latest l
JOIN variants v ON v.id = l.variant_id JOIN printings p ON p.id = v.printing_id
WHERE l.currency = 'USD' AND l.grading_company = 'raw' AND NOT EXISTS (SELECT 1 FROM auction_watchlist)
GROUP BY p.card_id
ORDER BY max(l.amount) DESC, p.card_id
LIMIT $1
ON CONFLICT (card_id) DO NOTHING
