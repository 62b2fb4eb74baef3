-- For variants: the lowest US market price (USD, ungraded, no outliers) one and seven days before
-- the variant's newest price day, each taken from its newest day at or before then (NULL when it
-- had none). One query for a whole collection's variants.
SELECT
  variant_id,
  argMaxIf(toNullable(low), day, day <= newest - 1) AS day_ago,
  argMaxIf(toNullable(low), day, day <= newest - 7) AS week_ago
FROM (
  SELECT variant_id, day, low, max(day) OVER (PARTITION BY variant_id) AS newest
  FROM (
    SELECT variant_id, day, min(amount) AS low
    FROM holo.market_daily
    WHERE region = 'us' AND price_type = 'market' AND currency = 'USD'
      AND day >= {since:Date} AND variant_id IN {variant_ids:Array(UInt32)}
    GROUP BY variant_id, day
  )
)
GROUP BY variant_id
