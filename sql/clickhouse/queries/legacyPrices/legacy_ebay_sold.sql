-- Auction sales of a card's variants since {since} in USD: per day, company and grade the average
-- sale (kind = 'day'), and per company and grade the average, median, range and count (kind =
-- 'summary'). Empty company or grade: every one.
WITH sales AS (
  SELECT day, grading_company, grade, price_usd AS price
  FROM holo.card_auction_sales_usd(card_id = {card_id:UInt32}, variant_ids = {variant_ids:Array(UInt32)}, since = {since:Date},
                                   grading_company = {grading_company:String}, grade = {grade:String})
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
