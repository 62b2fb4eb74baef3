-- Statistics of one scope's daily series (the median across sources of each day's USD market
-- price) since {since}: the newest price, the price N days before it (the newest day at least N
-- days older) for N = 1, 7, 30, 90, 365, the all-time high in the window, the volatility (standard
-- deviation) and drift (mean) of daily log returns, and a least-squares line through (day number, price).
WITH series AS (
  SELECT day, quantileExactInclusive(0.5)(price_usd) AS price
  FROM holo.card_market_daily_usd(card_id = {card_id:UInt32}, variant_ids = {variant_ids:Array(UInt32)}, since = {since:Date})
  WHERE grading_company = {grading_company:String} AND grade = {grade:String}
    AND (empty({source:String}) OR source = {source:String})
  GROUP BY day
),
newest AS (SELECT max(day) AS last_day FROM series),
returns AS (
  SELECT log(price / lagInFrame(price) OVER (ORDER BY day ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)) AS r,
         row_number() OVER (ORDER BY day) AS n
  FROM series
)
SELECT
  count() AS points,
  toString(any(l.last_day)) AS last_day,
  argMax(s.price, s.day) AS current,
  argMaxIf(s.price, s.day, s.day <= l.last_day - 1) AS p1, countIf(s.day <= l.last_day - 1) AS n1,
  argMaxIf(s.price, s.day, s.day <= l.last_day - 7) AS p7, countIf(s.day <= l.last_day - 7) AS n7,
  argMaxIf(s.price, s.day, s.day <= l.last_day - 30) AS p30, countIf(s.day <= l.last_day - 30) AS n30,
  argMaxIf(s.price, s.day, s.day <= l.last_day - 90) AS p90, countIf(s.day <= l.last_day - 90) AS n90,
  argMaxIf(s.price, s.day, s.day <= l.last_day - 365) AS p365, countIf(s.day <= l.last_day - 365) AS n365,
  max(s.price) AS ath_price,
  toString(argMax(s.day, (s.price, s.day))) AS ath_date,
  avg(s.price) AS mean_price,
  (SELECT stddevSampOrNull(r) FROM returns WHERE n > 1) AS volatility,
  (SELECT avgOrNull(r) FROM returns WHERE n > 1) AS drift,
  tupleElement(simpleLinearRegression(toFloat64(toRelativeDayNum(s.day)), s.price), 1) AS slope_per_day,
  tupleElement(simpleLinearRegression(toFloat64(toRelativeDayNum(s.day)), s.price), 2) AS intercept,
  toRelativeDayNum(any(l.last_day)) AS last_day_number
FROM series AS s CROSS JOIN newest AS l
