-- PostgreSQL twin of clickhouse/queries/market/market_movers.sql over bench.price_points (all games,
-- $1 days, $2 limit): the same series, the same choice per card, the same three lists.
WITH newest AS (
  SELECT max(as_of) AS d FROM bench.price_points WHERE region = 'us' AND price_type = 'market'
),
series AS (
  SELECT card_id, variant_id, source, count(*) AS n,
         max(amount) FILTER (WHERE as_of = (SELECT d FROM newest)) AS current,
         max(amount) FILTER (WHERE as_of = (SELECT d FROM newest) - $1::int) AS past,
         stddev_pop(amount) / avg(amount) AS volatility
  FROM bench.price_points
  WHERE region = 'us' AND price_type = 'market' AND grading_company = 'raw' AND NOT is_outlier
    AND as_of BETWEEN (SELECT d FROM newest) - $1::int AND (SELECT d FROM newest)
  GROUP BY card_id, variant_id, source
  HAVING max(amount) FILTER (WHERE as_of = (SELECT d FROM newest)) >= 1
     AND max(amount) FILTER (WHERE as_of = (SELECT d FROM newest) - $1::int) > 0
),
per_card AS (
  SELECT DISTINCT ON (card_id) card_id, current, past, volatility, (current - past) / past * 100 AS change_pct
  FROM series ORDER BY card_id, n DESC, current DESC
)
-- value: what each list is ordered by (the change, or the volatility), so the answer can be checked against ClickHouse's.
(SELECT 'gainer' AS kind, card_id, change_pct AS value FROM per_card ORDER BY change_pct DESC LIMIT $2)
UNION ALL
(SELECT 'loser', card_id, change_pct FROM per_card ORDER BY change_pct ASC LIMIT $2)
UNION ALL
(SELECT 'volatile', card_id, volatility FROM per_card ORDER BY volatility DESC LIMIT $2)
