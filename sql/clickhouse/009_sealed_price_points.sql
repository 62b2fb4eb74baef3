-- Prices of sealed products (PostgreSQL sealed_products.id), the same facts as price_points for
-- cards: one row per source, price type and day; the newest load of an observation wins.
CREATE TABLE IF NOT EXISTS holo.sealed_price_points {{ON_CLUSTER}}
(
  product_id  UInt32                 COMMENT 'PostgreSQL sealed_products.id',
  game        LowCardinality(String),
  region      LowCardinality(String) COMMENT 'eu or us',
  source      LowCardinality(String),
  price_type  LowCardinality(String) COMMENT 'trend, avg, low (EU marketplace guide); market (US)',
  currency    LowCardinality(String),
  amount      Decimal(18, 4),
  as_of       Date,
  ingested_at DateTime64(3, 'UTC'),
  is_outlier  Bool,
  batch_id    String
)
ENGINE = {{REPLICATED}}ReplacingMergeTree(ingested_at)
PARTITION BY toYear(as_of)
ORDER BY (product_id, region, source, price_type, as_of);
