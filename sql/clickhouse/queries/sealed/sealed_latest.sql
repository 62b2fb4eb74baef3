-- The newest non-outlier price of every series of the given sealed products. (Columns are
-- qualified: an unqualified as_of would name the alias of the output column.)
SELECT p.product_id AS product_id, p.region AS region, p.source AS source, p.price_type AS price_type, p.currency AS currency,
       toFloat64(argMax(p.amount, (p.as_of, p.ingested_at))) AS amount, toString(max(p.as_of)) AS as_of
FROM holo.sealed_price_points AS p
WHERE p.product_id IN {ids:Array(UInt32)} AND NOT p.is_outlier
GROUP BY p.product_id, p.region, p.source, p.price_type, p.currency
ORDER BY product_id, region, source, price_type
