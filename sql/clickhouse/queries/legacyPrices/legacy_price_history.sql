-- Daily market price per source of a card's selected variants, ungraded, in USD. '' source: all.
SELECT toString(day) AS date, source, round(quantileExactInclusive(0.5)(price_usd), 4) AS market_price
FROM holo.card_market_daily_usd(card_id = {card_id:UInt32}, variant_ids = {variant_ids:Array(UInt32)}, since = {since:Date})
WHERE grading_company = {grading_company:String} AND grade = {grade:String}
  AND (empty({source:String}) OR source = {source:String})
GROUP BY day, source
ORDER BY day, source
