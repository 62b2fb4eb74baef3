-- Gainers, losers and the most volatile cards over {days} days, across every game or one ({game},
-- '' for all). A card's series is its ungraded US market price from one source for one variant
-- (the pair with the most values in the window stands for the card), so a source that starts or
-- stops reporting never looks like a move. Change: the newest day against {days} days before it.
-- Cards under $1 now are left out: pennies move by large percentages and mean little.
-- Volatility: the population standard deviation of the prices in the window over their mean.
-- The newest day is the newest complete US market day (the view market_days), then one short range read.
WITH
  (SELECT complete_day FROM holo.market_days(region = 'us', price_type = 'market')) AS newest,
  series AS (
    SELECT card_id, variant_id, source, count() AS n,
           argMaxIf(toFloat64(amount), ingested_at, day = newest) AS current,
           argMaxIf(toFloat64(amount), ingested_at, day = newest - {days:UInt32}) AS past,
           stddevPop(toFloat64(amount)) / avg(toFloat64(amount)) AS volatility
    FROM holo.market_daily
    WHERE region = 'us' AND price_type = 'market'
      AND day >= newest - {days:UInt32} AND day <= newest
      AND (empty({game:String}) OR game = {game:String})
    GROUP BY card_id, variant_id, source
    HAVING current >= 1 AND past > 0
  ),
  per_card AS (
    SELECT card_id, argMax((current, past, volatility), (n, current)) AS t FROM series GROUP BY card_id
  )
SELECT toString(newest) AS newest_day,
       arraySlice(arrayReverseSort(x -> x.4, groupArray(row)), 1, {limit:UInt32}) AS gainers,
       arraySlice(arraySort(x -> x.4, groupArray(row)), 1, {limit:UInt32}) AS losers,
       arraySlice(arrayReverseSort(x -> x.5, groupArray(row)), 1, {limit:UInt32}) AS most_volatile
FROM (SELECT (card_id, t.1, t.1 - t.2, (t.1 - t.2) / t.2 * 100, t.3) AS row FROM per_card)
