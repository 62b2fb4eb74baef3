-- Cards whose ungraded US market price has moved most steadily over the last {days} days: per series
-- (card, variant, source) with at least {min_points} days, a least-squares line through (day, price);
-- its slope as a share of the newest price a day, extrapolated {ahead} days, ranks the series; the
-- series with the most days stands for its card. '' game: every game. Cards under $1 left out.
WITH
  (SELECT complete_day FROM holo.market_days(region = 'us', price_type = 'market')) AS newest,
  series AS (
    SELECT card_id, variant_id, source, count() AS n,
           argMax(toFloat64(amount), (day, ingested_at)) AS current,
           simpleLinearRegression(toFloat64(toRelativeDayNum(day) - toRelativeDayNum(newest)), toFloat64(amount)) AS fit
    FROM holo.market_daily
    WHERE region = 'us' AND price_type = 'market' AND day > newest - {days:UInt32} AND day <= newest
      AND (empty({game:String}) OR game = {game:String})
    GROUP BY card_id, variant_id, source
    HAVING n >= {min_points:UInt32} AND current >= 1
  ),
  per_card AS (
    SELECT card_id, argMax((current, fit.1, fit.2, n), n) AS t FROM series GROUP BY card_id
  )
SELECT card_id, t.1 AS current, t.2 AS slope_per_day, t.4 AS points,
       greatest(0.01, t.3 + t.2 * {ahead:UInt32}) AS predicted,
       (greatest(0.01, t.3 + t.2 * {ahead:UInt32}) - t.1) / t.1 * 100 AS predicted_change_pct
FROM per_card
ORDER BY {direction:Int8} * predicted_change_pct DESC, card_id
LIMIT {limit:UInt32}
