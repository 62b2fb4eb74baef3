-- For variants: the lowest US market price (USD, ungraded, no outliers) of each day since {since},
-- as two parallel arrays per variant, days (counted from 1970-01-01) ascending. One query for all
-- of a collection's variants, as its daily value needs them.
SELECT
  variant_id,
  arrayMap(p -> p.1, points) AS days,
  arrayMap(p -> p.2, points) AS lows
FROM (
  SELECT variant_id, arraySort(groupArray((day_number, low))) AS points
  FROM (
    SELECT variant_id, toUInt32(dateDiff('day', toDate('1970-01-01'), day)) AS day_number, toFloat64(min(amount)) AS low
    FROM holo.market_daily
    WHERE region = 'us' AND price_type = 'market' AND currency = 'USD'
      AND day >= {since:Date} AND variant_id IN {variant_ids:Array(UInt32)}
    GROUP BY variant_id, day
  )
  GROUP BY variant_id
)
