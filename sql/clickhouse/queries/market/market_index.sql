-- Per game, a market index over {days} days: the summed newest US market prices of every series
-- (card, variant, source) priced on both the newest complete day (the view market_days) and
-- {days} before it, against the same series' summed prices then; with how many series rose, fell
-- or held (within ±1 %).
WITH
  (SELECT complete_day FROM holo.market_days(region = 'us', price_type = 'market')) AS newest,
  series AS (
    SELECT game, card_id, variant_id, source,
           argMaxIf(toFloat64(amount), ingested_at, day = newest) AS current,
           argMaxIf(toFloat64(amount), ingested_at, day = newest - {days:UInt32}) AS past
    FROM holo.market_daily
    WHERE region = 'us' AND price_type = 'market' AND day IN (newest, newest - {days:UInt32})
    GROUP BY game, card_id, variant_id, source
    HAVING current > 0 AND past > 0
  )
SELECT game, toString(any(newest)) AS newest_day, count() AS series, uniqExact(card_id) AS cards,
       sum(current) AS value_now, sum(past) AS value_then,
       countIf(current > past * 1.01) AS rising, countIf(current < past * 0.99) AS falling,
       countIf(current BETWEEN past * 0.99 AND past * 1.01) AS holding
FROM series
GROUP BY game
ORDER BY game
