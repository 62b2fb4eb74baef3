-- Staging table of the variants the demo history is generated for (dropped after the load).
CREATE TABLE holo.demo_variants (variant_id UInt32, card_id UInt32, game LowCardinality(String), base_usd Float64, graded UInt8, jp UInt8)
ENGINE = MergeTree ORDER BY variant_id
