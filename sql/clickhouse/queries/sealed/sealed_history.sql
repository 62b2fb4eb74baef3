-- A sealed product's daily EU trend and US market prices since a day.
SELECT toString(as_of) AS date, price_type, currency, toFloat64(argMax(amount, ingested_at)) AS price
FROM holo.sealed_price_points
WHERE product_id = {id:UInt32} AND as_of >= {since:Date} AND NOT is_outlier AND price_type IN ('trend', 'market')
GROUP BY as_of, price_type, currency
ORDER BY as_of, price_type
