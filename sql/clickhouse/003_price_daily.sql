-- Daily series: one row per series and day with the median, range, closing value and count of
-- non-outlier observations. A view over price_points rather than a materialised table: every
-- read is filtered by card (the head of the sort key), so it costs one short range scan, and it
-- can never drift from the facts (replays, late corrections and outlier flags show at once).
-- Measured on chDB: a GROUP BY materialised view tripled the cost of every load.
CREATE VIEW IF NOT EXISTS holo.price_daily {{ON_CLUSTER}} AS
SELECT
  card_id, variant_id, region, source, price_type, grading_company, grade,
  any(currency)                    AS currency,
  as_of                            AS day,
  medianExact(amount)              AS median_amount,
  min(amount)                      AS min_amount,
  max(amount)                      AS max_amount,
  argMax(amount, observation_id)   AS close_amount,
  count()                          AS observations
FROM holo.price_points FINAL
WHERE NOT is_outlier
GROUP BY card_id, variant_id, region, source, price_type, grading_company, grade, day;
