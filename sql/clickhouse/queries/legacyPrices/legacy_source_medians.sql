-- Per source, the median USD market price of one scope over the last {days} days before its newest
-- day, with how many daily values it rests on and the region it trades in.
WITH rows AS (
  SELECT day, source, region, price_usd
  FROM holo.card_market_daily_usd(card_id = {card_id:UInt32}, variant_ids = {variant_ids:Array(UInt32)}, since = {since:Date})
  WHERE grading_company = {grading_company:String} AND grade = {grade:String}
)
SELECT source, min(region) AS region, quantileExactInclusive(0.5)(price_usd) AS median, count() AS sample_size
FROM rows
WHERE day > (SELECT max(day) FROM rows) - {days:UInt32}
GROUP BY source
ORDER BY source
