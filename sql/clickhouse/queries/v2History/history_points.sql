-- Daily history of one variant's raw series in one region (several rows a day, one per series),
-- daily-median bucketed, outliers excluded. Reads price_points directly: one range of its sort key.
SELECT toString(p.as_of) AS date, toString(medianExact(p.amount)) AS amount, p.source AS source, p.price_type AS price_type
FROM holo.price_points AS p FINAL
WHERE p.card_id = {card_id:UInt32}
  AND p.variant_id = {variant_id:UInt32}
  AND p.region = {region:String}
  AND p.grading_company = 'raw'
  AND p.as_of >= {since:Date}
  AND NOT p.is_outlier
GROUP BY p.as_of, p.source, p.price_type
ORDER BY p.as_of, p.source, p.price_type
