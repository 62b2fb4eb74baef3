-- A stage's newest loaded non-outlier price per series (the later row of a day in feed order), as
-- TabSeparated for PostgreSQL's COPY (latest_prices_staged_copy.sql), in series order; the cards
-- of one lane of {lanes} (card_id modulo), which PostgreSQL writes on a connection of its own.
SELECT any(card_id), variant_id, region, source, price_type, grading_company, grade,
       argMax(currency, (as_of, seq)), argMax(amount, (as_of, seq)), max(as_of)
FROM holo.ingest_mapped_rows
WHERE stage_id = {stage:String} AND refused = '' AND NOT is_outlier AND card_id % {lanes:UInt32} = {lane:UInt32}
  AND (variant_id, source) NOT IN (SELECT variant_id, source FROM holo.ingest_cross_source WHERE stage_id = {stage:String})
GROUP BY variant_id, region, source, price_type, grading_company, grade
ORDER BY variant_id, region, source, price_type, grading_company, grade
