-- Replayed inserts into price_points (an interrupted demo load, a retried batch) reach market_daily
-- through its materialised view; it keeps block ids too so that ClickHouse drops them there as
-- well. Its monthly partitions split each inserted block about thirteen ways, hence the window.
ALTER TABLE holo.market_daily {{ON_CLUSTER}} MODIFY SETTING non_replicated_deduplication_window = 10000;
