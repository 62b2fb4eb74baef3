-- Seven-day change of the reference series of the given variants: the daily median of their
-- ungraded US `market` prices on the newest day against the newest day at least 7 days before it.
-- {card_ids} bounds the scan to the cards' key ranges; {variant_ids} picks the variants.
WITH daily AS (
  SELECT variant_id, as_of AS day, toFloat64(medianExact(amount)) AS price
  FROM holo.price_points FINAL
  WHERE card_id IN {card_ids:Array(UInt32)} AND variant_id IN {variant_ids:Array(UInt32)}
    AND region = 'us' AND price_type = 'market' AND grading_company = 'raw' AND NOT is_outlier
    AND as_of >= today() - 60
  GROUP BY variant_id, day
),
newest AS (
  SELECT variant_id, argMax(price, day) AS newest_price, max(day) AS newest_day FROM daily GROUP BY variant_id
)
SELECT n.variant_id AS variant_id, any(n.newest_price) AS current, argMax(d.price, d.day) AS past
FROM newest AS n
INNER JOIN daily AS d ON d.variant_id = n.variant_id
WHERE d.day <= n.newest_day - 7
GROUP BY n.variant_id
