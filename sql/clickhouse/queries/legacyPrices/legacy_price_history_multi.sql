-- Every series of a card (variant × grading company × grade), each day the median of its sources'
-- USD market prices; series with fewer than {min_points} days are left out; most days first.
SELECT variant_id, grading_company, grade, count() AS total_points,
       groupArray((toString(day), round(price, 4))) AS points
FROM
(
  SELECT day, variant_id, grading_company, grade, quantileExactInclusive(0.5)(price_usd) AS price
  FROM holo.card_market_daily_usd(card_id = {card_id:UInt32}, variant_ids = {variant_ids:Array(UInt32)}, since = {since:Date})
  GROUP BY day, variant_id, grading_company, grade
  ORDER BY day
)
GROUP BY variant_id, grading_company, grade
HAVING total_points >= {min_points:UInt32}
ORDER BY total_points DESC, variant_id, grading_company, grade
