-- Cards whose sources disagree: per card variant, each source's newest ungraded market price of the
-- last 7 days in USD; the gap between the cheapest and the dearest source as a percentage of the
-- cheapest; at least {min_spread_pct} and two sources. The widest variant stands for its card.
WITH
  (SELECT max(max_date) FROM system.parts WHERE database = 'holo' AND table = 'market_daily' AND active) AS newest_any,
  per_source AS (
    SELECT m.card_id AS card_id, m.variant_id AS variant_id, m.source AS source, any(m.game) AS game,
           argMax(if(m.currency = 'USD', toFloat64(m.amount), toFloat64(m.amount) * fx.usd_per_unit), (m.day, m.ingested_at)) AS usd
    FROM holo.market_daily AS m
    ASOF LEFT JOIN holo.fx_to_usd AS fx ON m.currency = fx.currency AND m.day >= fx.day
    WHERE m.price_type IN ('market', 'trend') AND m.day > newest_any - 7
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
