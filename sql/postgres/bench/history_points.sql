-- PostgreSQL twin of clickhouse/queries/v2History/history_points.sql: a variant's daily medians per source
-- and price type in one region since a day. $1 card, $2 variant, $3 region, $4 since.
SELECT as_of::text AS date, percentile_disc(0.5) WITHIN GROUP (ORDER BY amount)::text AS amount, source, price_type
FROM bench.price_points
WHERE card_id = $1 AND variant_id = $2 AND region = $3 AND grading_company = 'raw' AND as_of >= $4 AND NOT is_outlier
GROUP BY as_of, source, price_type
ORDER BY as_of, source, price_type
