-- The stage's (variant, source) pairs whose market value disagrees with the other sources, with
-- the rule of ingest/normalise/crossSource.ts: the stage's ungraded market, trend and raw_us rows
-- are checked, in USD at each currency's newest rate; per variant, each source's value is the
-- median of its values, the stage's own rows (those not flagged by their series) replacing what
-- history says of their source (cross_source_consensus.sql, read for the stage's cards and
-- variants as sets); a row is judged against the median of the other sources' values when there
-- are at least {min_other_sources} of them, and a ratio beyond {factor} either way marks its pair.
-- The pair's quarantine entry names its last such row in feed order.
INSERT INTO holo.ingest_cross_source (stage_id, variant_id, source, message)
WITH
  checked AS (
    SELECT seq, m.card_id AS card_id, m.variant_id AS variant_id, m.source AS source, m.price_type AS price_type, m.amount AS amount,
           m.currency AS currency, m.is_outlier AS is_outlier,
           toFloat64(m.amount) * if(m.currency = 'USD', 1, if(fx.usd_per_unit > 0, fx.usd_per_unit, nan)) AS usd
    FROM holo.ingest_mapped_rows AS m
    LEFT JOIN
    (
      SELECT currency, usd_per_unit FROM holo.fx_to_usd ORDER BY day DESC LIMIT 1 BY currency
    ) AS fx ON fx.currency = m.currency
    WHERE m.stage_id = {stage:String} AND m.refused = '' AND m.grading_company = 'raw' AND m.price_type IN ('market', 'trend', 'raw_us')
  ),
  history AS (
    SELECT p.variant_id AS variant_id, p.source AS source,
           median(if(p.currency = 'USD', toFloat64(p.amount), toFloat64(p.amount) * fx.usd_per_unit)) AS usd
    FROM
    (
      SELECT variant_id, source, region, price_type, currency, argMax(amount, (as_of, ingested_at)) AS amount, max(as_of) AS day
      FROM holo.price_points
      WHERE card_id IN (SELECT card_id FROM checked)
        AND variant_id IN (SELECT variant_id FROM checked)
        AND grading_company = 'raw' AND price_type IN ('market', 'trend', 'raw_us') AND NOT is_outlier
        AND as_of <= {as_of:Date} AND as_of > {as_of:Date} - {window_days:UInt32}
      GROUP BY variant_id, source, region, price_type, currency
    ) AS p
    ASOF LEFT JOIN holo.fx_to_usd AS fx ON p.currency = fx.currency AND p.day >= fx.day
    WHERE p.currency = 'USD' OR fx.usd_per_unit > 0
    GROUP BY p.variant_id, p.source
  ),
  per_variant AS (
    -- (source, its value) of each variant: the median of the source's values, as JavaScript takes it
    SELECT variant_id, groupArray((source, if(length(v) % 2 = 1, v[intDiv(length(v), 2) + 1], (v[intDiv(length(v), 2)] + v[intDiv(length(v), 2) + 1]) / 2))) AS values
    FROM
    (
      SELECT variant_id, source, arraySort(groupArray(usd)) AS v
      FROM
      (
        SELECT variant_id, source, usd FROM history WHERE (variant_id, source) NOT IN (SELECT variant_id, source FROM checked)
        UNION ALL
        SELECT variant_id, source, usd FROM checked WHERE NOT is_outlier AND isFinite(usd)
      )
      GROUP BY variant_id, source
    )
    GROUP BY variant_id
  )
SELECT {stage:String}, variant_id, source, argMax(message, seq)
FROM
(
  SELECT c.seq AS seq, c.variant_id AS variant_id, c.source AS source,
         arraySort(arrayMap(x -> x.2, arrayFilter(x -> x.1 != c.source, pv.values))) AS others,
         if(length(others) % 2 = 1, others[intDiv(length(others), 2) + 1], (others[intDiv(length(others), 2)] + others[intDiv(length(others), 2) + 1]) / 2) AS consensus,
         c.usd / consensus AS ratio,
         concat('variant:', toString(c.variant_id), ' ', c.source, ' ', c.price_type, ' ', c.amount, ' ', c.currency, ' vs ',
                toString(toDecimalString(consensus, 2)), ' USD (', toString(toDecimalString(ratio, 2)), 'x)') AS message
  FROM checked AS c
  INNER JOIN per_variant AS pv ON pv.variant_id = c.variant_id
  WHERE isFinite(c.usd) AND length(others) >= {min_other_sources:UInt32} AND (ratio > {factor:Float64} OR ratio < 1 / {factor:Float64})
)
GROUP BY variant_id, source
