-- What a stage came to: rows parsed, refused (at parse or mapping), loaded, flagged (by either
-- check) and flagged by the cross-source check.
SELECT
  (SELECT count() FROM holo.ingest_source_rows WHERE stage_id = {stage:String} AND refused = '') AS parsed,
  (SELECT count() FROM holo.ingest_source_rows WHERE stage_id = {stage:String} AND refused != '')
    + countIf(refused != '') AS rejected,
  countIf(refused = '') AS loaded,
  countIf(refused = '' AND (is_outlier OR cross_source)) AS flagged,
  countIf(refused = '' AND cross_source) AS cross_source_flagged
FROM
(
  SELECT refused, is_outlier,
         (variant_id, source) IN (SELECT variant_id, source FROM holo.ingest_cross_source WHERE stage_id = {stage:String}) AS cross_source
  FROM holo.ingest_mapped_rows
  WHERE stage_id = {stage:String}
)
