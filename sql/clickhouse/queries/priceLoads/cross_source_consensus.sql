-- Each source's newest market value of the given variants in USD (ungraded market, trend or raw_us,
-- not an outlier) within {window_days} days up to {as_of}: what a new price from another source is
-- checked against (ingest/normalise/crossSource.ts). A source quoting several such series (one per
-- region) gives their median. Rows without an exchange rate are left out.
SELECT p.variant_id AS variant_id, p.source AS source,
       median(if(p.currency = 'USD', toFloat64(p.amount), toFloat64(p.amount) * fx.usd_per_unit)) AS usd
FROM
(
  SELECT variant_id, source, region, price_type, currency, argMax(amount, (as_of, ingested_at)) AS amount, max(as_of) AS day
  FROM holo.price_points
  WHERE card_id IN {card_ids:Array(UInt32)}
    AND variant_id IN {variant_ids:Array(UInt32)}
    AND grading_company = 'raw' AND price_type IN ('market', 'trend', 'raw_us') AND NOT is_outlier
    AND as_of <= {as_of:Date} AND as_of > {as_of:Date} - {window_days:UInt32}
  GROUP BY variant_id, source, region, price_type, currency
) AS p
ASOF LEFT JOIN holo.fx_to_usd AS fx ON p.currency = fx.currency AND p.day >= fx.day
WHERE p.currency = 'USD' OR fx.usd_per_unit > 0
GROUP BY p.variant_id, p.source
