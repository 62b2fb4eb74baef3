-- Cards whose sources disagree: per card variant, each source's newest ungraded market price (US
-- market, EU trend) of the 7 days up to its region's newest complete day (the view market_days:
-- a morning on which one source has landed is not yet the market), in USD; the gap between the
-- cheapest and the dearest source as a percentage of the cheapest; at least {min_spread_pct} and
-- two sources. The widest variant stands for its card.
WITH
  (SELECT complete_day FROM holo.market_days(region = 'us', price_type = 'market')) AS us_complete,
  (SELECT complete_day FROM holo.market_days(region = 'eu', price_type = 'trend')) AS eu_complete,
  per_source AS (
    SELECT m.card_id AS card_id, m.variant_id AS variant_id, m.source AS source, any(m.game) AS game,
           argMax(if(m.currency = 'USD', toFloat64(m.amount), toFloat64(m.amount) * fx.usd_per_unit), (m.day, m.ingested_at)) AS usd
    FROM holo.market_daily AS m
    ASOF LEFT JOIN holo.fx_to_usd AS fx ON m.currency = fx.currency AND m.day >= fx.day
    WHERE ((m.region = 'us' AND m.price_type = 'market' AND m.day > us_complete - 7 AND m.day <= us_complete)
        OR (m.region = 'eu' AND m.price_type = 'trend' AND m.day > eu_complete - 7 AND m.day <= eu_complete))
      AND (empty({game:String}) OR m.game = {game:String})
      AND (m.currency = 'USD' OR fx.usd_per_unit > 0)
    GROUP BY m.card_id, m.variant_id, m.source
  ),
  per_variant AS (
    SELECT card_id, variant_id, min(usd) AS low, max(usd) AS high, argMin(source, usd) AS cheapest, argMax(source, usd) AS dearest, count() AS sources
    FROM per_source GROUP BY card_id, variant_id HAVING sources >= 2 AND low >= 1
  )
SELECT card_id, argMax((variant_id, low, high, cheapest, dearest, sources), (high - low) / low) AS t,
       max((high - low) / low * 100) AS spread_pct
FROM per_variant
GROUP BY card_id
HAVING spread_pct >= {min_spread_pct:Float64}
ORDER BY spread_pct DESC, card_id
LIMIT {limit:UInt32}
