-- Staging table of the sealed products the demo history is generated for (dropped after the load).
CREATE TABLE holo.demo_sealed (product_id UInt32, game LowCardinality(String), base_eur Float64) ENGINE = MergeTree ORDER BY product_id
