-- Staging table of the series the demo history is generated for (dropped after the load): per
-- series its key, and what the price model needs (ingest/demoMarket/priceModel.ts SeriesQuote).
CREATE TABLE holo.demo_series (
  variant_id UInt32, card_id UInt32, game LowCardinality(String),
  region LowCardinality(String), source LowCardinality(String), price_type LowCardinality(String),
  grading_company LowCardinality(String), grade LowCardinality(String), currency LowCardinality(String),
  scale Float64, seed UInt32, lag UInt16, noise_width Float64, auction Bool,
  drift Float64, wave_amp Float64, wave_period Float64, wave_phase Float64,
  spike_height Float64, spike_day Float64, crash_depth Float64, crash_day Float64
)
ENGINE = MergeTree ORDER BY (variant_id, source, price_type, grading_company, grade)
