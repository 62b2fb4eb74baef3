-- Euro reference rates (ECB style): units of currency per 1 EUR, one row per currency and day.
CREATE TABLE IF NOT EXISTS holo.fx_rates {{ON_CLUSTER}}
(
  day         Date,
  currency    LowCardinality(String) COMMENT 'ISO 4217',
  rate        Decimal(18, 6)         COMMENT 'units of currency per 1 EUR',
  source      LowCardinality(String),
  ingested_at DateTime64(3, 'UTC')
)
ENGINE = {{REPLICATED}}ReplacingMergeTree(ingested_at)
ORDER BY (currency, day);
