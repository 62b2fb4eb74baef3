-- The precompute's batch table (015) gains each daily row's currency and price in it: the daily
-- series precomputed from it (price-history-snapshots shows a source's own currency) need them.
-- Memory, emptied before each batch: nothing to keep, so the table is made again.
DROP TABLE IF EXISTS holo.card_analytics_batch {{ON_CLUSTER}};

CREATE TABLE holo.card_analytics_batch {{ON_CLUSTER}}
(
  card_id         UInt32,
  variant_id      UInt32,
  grading_company LowCardinality(String),
  grade           LowCardinality(String),
  day             Date,
  source          LowCardinality(String),
  region          LowCardinality(String),
  currency        LowCardinality(String),
  price           Float64,
  price_usd       Float64
)
ENGINE = Memory;
