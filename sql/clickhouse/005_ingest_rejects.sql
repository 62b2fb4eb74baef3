-- Quarantine: every feed row an ingestion refused, with the reason. Nothing here is ever loaded
-- as a price; operators read it to fix mappings or chase a broken upstream.
CREATE TABLE IF NOT EXISTS holo.ingest_rejects {{ON_CLUSTER}}
(
  batch_id    String                 COMMENT 'ingestion batch (source/game/day)',
  source      LowCardinality(String) COMMENT 'feed the row came from',
  game        LowCardinality(String),
  ref         String                 COMMENT 'the upstream reference of the refused row',
  reason      String                 COMMENT 'why it was refused',
  rejected_at DateTime64(3, 'UTC')
)
ENGINE = {{REPLICATED}}ReplacingMergeTree(rejected_at)
PARTITION BY toYYYYMM(rejected_at)
ORDER BY (batch_id, source, ref, reason)
TTL toDateTime(rejected_at) + INTERVAL 180 DAY;
