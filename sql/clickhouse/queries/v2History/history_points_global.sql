-- History of one variant's raw series from every region, converted to USD with the euro reference
-- rate of each day, or the last one published before it (rates are units per 1 EUR).
-- Points without a usable rate are left out rather than shown unconverted. A source trading in
-- several regions: one row each, in region order.
WITH
  points AS (
    SELECT p.as_of AS day, p.source AS source, p.price_type AS price_type, p.region AS region, any(p.currency) AS currency,
           toFloat64(medianExact(p.amount)) AS amount, 'USD' AS usd
    FROM holo.price_points AS p FINAL
    WHERE p.card_id = {card_id:UInt32} AND p.variant_id = {variant_id:UInt32}
      AND p.grading_company = 'raw' AND p.as_of >= {since:Date} AND NOT p.is_outlier
    GROUP BY p.as_of, p.source, p.price_type, p.region
  ),
  -- A fortnight of look-back covers weekends and holidays without a published rate.
  rates AS (
    SELECT currency, day, toFloat64(argMax(rate, ingested_at)) AS rate
    FROM holo.fx_rates
    WHERE day >= {since:Date} - 14
    GROUP BY currency, day
  )
SELECT toString(pt.day) AS date,
       toString(round(if(pt.currency = 'USD', pt.amount, pt.amount * usd.rate / if(pt.currency = 'EUR', 1, cur.rate)), 4)) AS amount,
       pt.source AS source, pt.price_type AS price_type
FROM points AS pt
ASOF LEFT JOIN rates AS usd ON pt.usd = usd.currency AND pt.day >= usd.day
ASOF LEFT JOIN rates AS cur ON pt.currency = cur.currency AND pt.day >= cur.day
WHERE pt.currency = 'USD' OR (usd.rate > 0 AND (pt.currency = 'EUR' OR cur.rate > 0))
ORDER BY pt.day, pt.source, pt.price_type, pt.region
