-- Loads a stage's mapped rows into price_points as batch {batch}, each flagged when it is an outlier
-- of its own series or of a (variant, source) pair the cross-source check marked.
INSERT INTO holo.price_points
  (card_id, variant_id, game, region, source, price_type, grading_company, grade, currency, amount, as_of, observation_id, ingested_at,
   is_outlier, batch_id)
SELECT card_id, variant_id, game, region, source, price_type, grading_company, grade, currency, toDecimal128(amount, 4), as_of,
       observation_id, {ingested_at:DateTime64(3, 'UTC')},
       is_outlier OR (variant_id, source) IN (SELECT variant_id, source FROM holo.ingest_cross_source WHERE stage_id = {stage:String}),
       {batch:String}
FROM holo.ingest_mapped_rows
WHERE stage_id = {stage:String} AND refused = ''
ORDER BY seq
