-- Ungraded market prices by day: the rows of price_points that market-wide questions read (movers,
-- overview, trending), sorted by day first so "every card on these days" is a short range read
-- instead of a scan of the whole history. Filled by a materialised view on every load; outliers
-- (known at load) never enter. Sorted by region and price type, then day: "US market prices on these
-- days" is one contiguous range. "Market" is the price type each kind of source reports as its
-- market value: market (US marketplaces), trend (EU marketplace), raw_us, raw_jp, last_sold.
CREATE TABLE IF NOT EXISTS holo.market_daily {{ON_CLUSTER}}
(
  day            Date,
  game           LowCardinality(String),
  region         LowCardinality(String),
  price_type     LowCardinality(String),
  card_id        UInt32,
  variant_id     UInt32,
  source         LowCardinality(String),
  observation_id String,
  currency       LowCardinality(String),
  amount         Decimal(18, 4),
  ingested_at    DateTime64(3, 'UTC') COMMENT 'the newest version of an observation wins, as in price_points'
)
ENGINE = {{REPLICATED}}ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(day)
ORDER BY (region, price_type, day, game, card_id, variant_id, source, observation_id);

CREATE MATERIALIZED VIEW IF NOT EXISTS holo.market_daily_mv {{ON_CLUSTER}} TO holo.market_daily AS
SELECT as_of AS day, game, region, price_type, card_id, variant_id, source, observation_id, currency, amount, ingested_at
FROM holo.price_points
WHERE grading_company = 'raw' AND NOT is_outlier AND price_type IN ('market', 'trend', 'raw_us', 'raw_jp', 'last_sold');

-- Existing history, once (an empty table means it was never filled).
INSERT INTO holo.market_daily
SELECT as_of AS day, game, region, price_type, card_id, variant_id, source, observation_id, currency, amount, ingested_at
FROM holo.price_points
WHERE grading_company = 'raw' AND NOT is_outlier AND price_type IN ('market', 'trend', 'raw_us', 'raw_jp', 'last_sold')
  AND (SELECT count() FROM holo.market_daily) = 0;
