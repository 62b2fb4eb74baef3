-- Auction sales of a card's variants since {since} in USD: per day, company and grade the average
-- sale (kind = 'day'), and per company and grade the average, median, range and count (kind =
-- 'summary'). Empty company or grade: every one.
WITH sales AS (
  SELECT p.as_of AS day, p.grading_company AS grading_company, p.grade AS grade,
         if(p.currency = 'USD', toFloat64(p.amount), toFloat64(p.amount) * fx.usd_per_unit) AS price
  FROM holo.price_points AS p FINAL
  ASOF LEFT JOIN holo.fx_to_usd AS fx ON p.currency = fx.currency AND p.as_of >= fx.day
  WHERE p.card_id = {card_id:UInt32} AND p.variant_id IN {variant_ids:Array(UInt32)}
    AND p.source = 'auction_sold' AND p.as_of >= {since:Date} AND NOT p.is_outlier
    AND (empty({grading_company:String}) OR p.grading_company = {grading_company:String})
    AND (empty({grade:String}) OR p.grade = {grade:String})
    AND (p.currency = 'USD' OR fx.usd_per_unit > 0)
)
SELECT * FROM
(
SELECT 'day' AS kind, toString(day) AS date, grading_company, grade,
       round(avg(price), 2) AS average_price, 0 AS median_price, 0 AS min_price, 0 AS max_price, count() AS count
FROM sales GROUP BY day, grading_company, grade
UNION ALL
SELECT 'summary' AS kind, '' AS date, grading_company, grade,
       round(avg(price), 2), round(quantileExactInclusive(0.5)(price), 2), round(min(price), 2), round(max(price), 2), count()
FROM sales GROUP BY grading_company, grade
)
ORDER BY kind, date DESC, grading_company, grade
