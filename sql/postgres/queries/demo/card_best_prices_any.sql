-- Whether any card has a materialised best price.
SELECT 1 AS present FROM card_best_prices LIMIT 1
