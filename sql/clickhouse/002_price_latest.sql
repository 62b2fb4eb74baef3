-- Latest non-outlier observation per series (variant, region, source, price_type, company, grade).
-- Query with FINAL or argMax: rows for one series collapse on merge, the newest as_of wins.
CREATE TABLE IF NOT EXISTS holo.price_latest {{ON_CLUSTER}}
(
  card_id         UInt32,
  variant_id      UInt32,
  game            LowCardinality(String),
  region          LowCardinality(String),
  source          LowCardinality(String),
  price_type      LowCardinality(String),
  grading_company LowCardinality(String),
  grade           LowCardinality(String),
  currency        LowCardinality(String),
  amount          Decimal(18, 4),
  as_of           Date COMMENT 'the version: a later day replaces an earlier one'
)
ENGINE = {{REPLICATED}}ReplacingMergeTree(as_of)
ORDER BY (card_id, variant_id, region, source, price_type, grading_company, grade);

CREATE MATERIALIZED VIEW IF NOT EXISTS holo.price_latest_mv {{ON_CLUSTER}} TO holo.price_latest AS
SELECT card_id, variant_id, game, region, source, price_type, grading_company, grade, currency, amount, as_of
FROM holo.price_points
WHERE NOT is_outlier;
