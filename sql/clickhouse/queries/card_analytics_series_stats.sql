-- legacy_price_analysis.sql for every single-variant scope (card, variant, grading company, grade)
-- of many cards at once and for each window start in {sinces}, source '' (all): the same columns,
-- keyed by the scope and `since`. Precomputed when prices land (ingest/analytics/precompute.ts).
-- The daily series is read once, for the earliest start, and each window is its days from its own
-- start (a day's median across sources does not depend on the window); the newest day and the
-- daily log returns come from window functions over the scope and window, so the series is not
-- read again for them (a CTE is evaluated wherever it is named). Inner names differ from the
-- output's: a ClickHouse alias shadows a column of the same name.
WITH series AS (
  SELECT card_id, variant_id, grading_company, grade, day, quantileExactInclusive(0.5)(price_usd) AS price
  FROM holo.cards_market_daily_usd(card_ids = {card_ids:Array(UInt32)}, since = arrayMin({sinces:Array(Date)}))
  GROUP BY card_id, variant_id, grading_company, grade, day
),
windowed AS (
  SELECT card_id, variant_id, grading_company, grade, window_start, day, price,
         max(day) OVER scope AS newest_day,
         log(price / lagInFrame(price) OVER (PARTITION BY card_id, variant_id, grading_company, grade, window_start ORDER BY day
                                             ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)) AS r,
         row_number() OVER (PARTITION BY card_id, variant_id, grading_company, grade, window_start ORDER BY day) AS n
  FROM series
  ARRAY JOIN {sinces:Array(Date)} AS window_start
  WHERE day >= window_start
  WINDOW scope AS (PARTITION BY card_id, variant_id, grading_company, grade, window_start)
)
SELECT
  card_id, variant_id, grading_company, grade, toString(window_start) AS since,
  count() AS points,
  toString(any(newest_day)) AS last_day,
  argMax(price, day) AS current,
  argMaxIf(price, day, day <= newest_day - 1) AS p1, countIf(day <= newest_day - 1) AS n1,
  argMaxIf(price, day, day <= newest_day - 7) AS p7, countIf(day <= newest_day - 7) AS n7,
  argMaxIf(price, day, day <= newest_day - 30) AS p30, countIf(day <= newest_day - 30) AS n30,
  argMaxIf(price, day, day <= newest_day - 90) AS p90, countIf(day <= newest_day - 90) AS n90,
  argMaxIf(price, day, day <= newest_day - 365) AS p365, countIf(day <= newest_day - 365) AS n365,
  max(price) AS ath_price,
  toString(argMax(day, (price, day))) AS ath_date,
  avg(price) AS mean_price,
  stddevSampIfOrNull(r, n > 1) AS volatility,
  avgIfOrNull(r, n > 1) AS drift,
  tupleElement(simpleLinearRegression(toFloat64(toRelativeDayNum(day)), price), 1) AS slope_per_day,
  tupleElement(simpleLinearRegression(toFloat64(toRelativeDayNum(day)), price), 2) AS intercept,
  toRelativeDayNum(any(newest_day)) AS last_day_number
FROM windowed
GROUP BY card_id, variant_id, grading_company, grade, window_start
