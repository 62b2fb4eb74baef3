-- Per card of an id range, per variant and source: the median of the daily ungraded market price
-- in USD over the {days} days up to the newest loaded day, with how many days it rests on. What
-- the cross-source correlation compares (one source's series against the others').
WITH
  (SELECT max(max_date) FROM system.parts WHERE database = 'holo' AND table = 'market_daily' AND active) AS newest,
  daily AS (
    SELECT m.card_id AS card_id, m.variant_id AS variant_id, m.source AS source, any(m.region) AS region, m.day AS day,
           quantileExactInclusive(0.5)(if(m.currency = 'USD', toFloat64(m.amount), toFloat64(m.amount) * fx.usd_per_unit)) AS usd
    FROM holo.market_daily AS m
    ASOF LEFT JOIN holo.fx_to_usd AS fx ON m.currency = fx.currency AND m.day >= fx.day
    WHERE m.day > newest - {days:UInt32}
      AND m.card_id BETWEEN {first_card:UInt32} AND {last_card:UInt32}
      AND (m.currency = 'USD' OR fx.usd_per_unit > 0)
    GROUP BY card_id, variant_id, source, day
  )
SELECT card_id, variant_id, source, any(region) AS region, quantileExactInclusive(0.5)(usd) AS median_usd, count() AS days
FROM daily
GROUP BY card_id, variant_id, source
ORDER BY card_id, variant_id, source
