-- A card's daily ungraded market price per source between two days, in euros: each day's median
-- of the selected variants in USD, converted with that day's euro reference rate; one source or all.
WITH series AS (
  SELECT day, source, quantileExactInclusive(0.5)(price_usd) AS usd, 'EUR' AS eur
  FROM holo.card_market_daily_usd(card_id = {card_id:UInt32}, variant_ids = {variant_ids:Array(UInt32)}, since = {start_date:Date})
  WHERE grading_company = 'raw' AND day <= {end_date:Date} AND (empty({source:String}) OR source = {source:String})
  GROUP BY day, source
)
SELECT toString(s.day) AS date, s.source AS source, round(s.usd / fx.usd_per_unit, 2) AS market_price_eur
FROM series AS s
ASOF INNER JOIN holo.fx_to_usd AS fx ON s.eur = fx.currency AND s.day >= fx.day
ORDER BY s.day, s.source
