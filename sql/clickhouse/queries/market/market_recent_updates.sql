-- The newest ungraded US market prices loaded, newest load first: one row per card (its most
-- recently loaded series), with the series' price on the day before its newest one. '' game: all.
WITH
  (SELECT max(max_date) FROM system.parts WHERE database = 'holo' AND table = 'market_daily' AND active) AS newest_any,
  points AS (
    SELECT card_id, variant_id, source, day, argMax(toFloat64(amount), ingested_at) AS price, max(ingested_at) AS loaded_at
    FROM holo.market_daily
    WHERE region = 'us' AND price_type = 'market' AND day > newest_any - 8
      AND (empty({game:String}) OR game = {game:String})
    GROUP BY card_id, variant_id, source, day
  ),
  latest AS (
    SELECT card_id, variant_id, source,
           argMax((day, price), day) AS now_point, max(loaded_at) AS loaded_at,
           arrayElement(arrayReverseSort(x -> x.1, groupArray((day, price))), 2).2 AS previous
    FROM points
    GROUP BY card_id, variant_id, source
  )
SELECT card_id, argMax((toString(now_point.1), now_point.2, previous, source), loaded_at) AS t, max(loaded_at) AS loaded
FROM latest
GROUP BY card_id
ORDER BY loaded DESC, card_id
LIMIT {limit:UInt32}
