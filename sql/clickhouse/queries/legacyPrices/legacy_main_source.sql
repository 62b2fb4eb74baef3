-- The source that tracks a card's selected variants most closely: most ungraded daily values since
-- {since}, US marketplaces first on a tie. Empty when nothing tracks it.
SELECT source
FROM holo.card_market_daily_usd(card_id = {card_id:UInt32}, variant_ids = {variant_ids:Array(UInt32)}, since = {since:Date})
WHERE grading_company = 'raw'
GROUP BY source
ORDER BY count() DESC, any(region) = 'us' DESC, source
LIMIT 1
