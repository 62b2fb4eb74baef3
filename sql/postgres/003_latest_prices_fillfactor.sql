-- Every ingestion run rewrites most rows of variant_prices_latest (one new day per series). Free
-- room on each page lets PostgreSQL update a row in place (a HOT update, no index write), which
-- measured 1.4x faster on the full demo. CLUSTER rewrites the table once to apply the fill factor
-- (unlike VACUUM FULL it may run inside the migration's transaction).
ALTER TABLE variant_prices_latest SET (fillfactor = 70);
CLUSTER variant_prices_latest USING variant_prices_latest_pkey;
