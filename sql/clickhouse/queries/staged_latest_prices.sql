-- A stage's newest loaded non-outlier price per series (the later row of a day in feed order), as
-- TabSeparated for PostgreSQL's COPY (latest_prices_staged_copy.sql), in series order.
SELECT any(card_id), variant_id, region, source, price_type, grading_company, grade,
       argMax(currency, (as_of, seq)), argMax(amount, (as_of, seq)), max(as_of)
FROM holo.ingest_mapped_rows
WHERE stage_id = {stage:String} AND refused = '' AND NOT is_outlier
  AND (variant_id, source) NOT IN (SELECT variant_id, source FROM holo.ingest_cross_source WHERE stage_id = {stage:String})
GROUP BY variant_id, region, source, price_type, grading_company, grade
ORDER BY variant_id, region, source, price_type, grading_company, grade
