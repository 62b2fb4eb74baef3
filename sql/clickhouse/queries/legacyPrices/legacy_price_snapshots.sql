-- One source's daily values of a card's selected variants, raw and graded, in the source's own
-- currency (a source trading in two regions: one row each, in region order).
SELECT toString(day) AS date, variant_id, currency, grading_company, grade, round(price, 4) AS market_price
FROM holo.card_market_daily_usd(card_id = {card_id:UInt32}, variant_ids = {variant_ids:Array(UInt32)}, since = {since:Date})
WHERE source = {source:String}
ORDER BY day, variant_id, grading_company, grade, region
