-- legacy_price_analysis.sql for every single-variant scope (card, variant, grading company, grade)
-- of a batch of cards (holo.card_analytics_batch, filled by analytics/batch_fill.sql) and for each
-- window start in {sinces}, source '' (all): the same columns, keyed by the scope and `since`.
-- Precomputed when prices land (ingest/analytics/precompute.ts). The daily series and its log
-- returns are computed once a scope, not once a window: a day's median across sources, the newest
-- day and a day's return on the day before do not depend on the window's start; a return counts in
-- a window when the day before it is in the window too (the per-card query's "not the window's
-- first day"). Inner names differ from the output's: a ClickHouse alias shadows a column of the
-- same name.
WITH series AS (
  SELECT card_id, variant_id, grading_company, grade, day, quantileExactInclusive(0.5)(price_usd) AS price
  FROM holo.card_analytics_batch
  WHERE day >= arrayMin({sinces:Array(Date)})
  GROUP BY card_id, variant_id, grading_company, grade, day
),
returns AS (
  SELECT card_id, variant_id, grading_company, grade, day, price,
         max(day) OVER scope AS newest_day,
         log(price / lagInFrame(price) OVER scope) AS r,
         lagInFrame(day) OVER scope AS previous_day
  FROM series
  -- One window (one sort): the whole scope in day order, so lagInFrame is the day before.
  WINDOW scope AS (PARTITION BY card_id, variant_id, grading_company, grade ORDER BY day ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
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
  stddevSampIfOrNull(r, previous_day >= window_start) AS volatility,
  avgIfOrNull(r, previous_day >= window_start) AS drift,
  tupleElement(simpleLinearRegression(toFloat64(toRelativeDayNum(day)), price), 1) AS slope_per_day,
  tupleElement(simpleLinearRegression(toFloat64(toRelativeDayNum(day)), price), 2) AS intercept,
  toRelativeDayNum(any(newest_day)) AS last_day_number
FROM returns
ARRAY JOIN {sinces:Array(Date)} AS window_start
WHERE day >= window_start
GROUP BY card_id, variant_id, grading_company, grade, window_start
