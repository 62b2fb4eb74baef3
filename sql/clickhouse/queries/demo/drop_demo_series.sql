-- Drops the staging table of the demo history.
DROP TABLE IF EXISTS holo.demo_series
