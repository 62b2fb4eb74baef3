-- A card's daily market price in euros: each day the median across sources of the USD market price
-- of the selected variants (ungraded), converted with that day's euro reference rate.
WITH series AS (
  SELECT day, quantileExactInclusive(0.5)(price_usd) AS usd, 'EUR' AS eur
  FROM holo.card_market_daily_usd(card_id = {card_id:UInt32}, variant_ids = {variant_ids:Array(UInt32)}, since = {since:Date})
  WHERE grading_company = 'raw'
  GROUP BY day
)
SELECT toString(s.day) AS date, round(s.usd / fx.usd_per_unit, 2) AS market_price_eur
FROM series AS s
ASOF INNER JOIN holo.fx_to_usd AS fx ON s.eur = fx.currency AND s.day >= fx.day
ORDER BY s.day
