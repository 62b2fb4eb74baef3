-- Set-based ingestion (ingest/load/staged.ts): a feed's rows never become JavaScript objects
-- between the upstream's bytes and the stores. Each run stages its rows here under its own
-- stage_id (one partition, dropped when the run ends; TTL sweeps what a crashed run left), maps
-- them by joining a copy of the catalogue, flags them in SQL and inserts price_points from them.

-- The feed's rows as the source adapters read them, keyed by the upstream's product reference;
-- `refused` holds why a row was refused at parse (then it is quarantined, never mapped).
CREATE TABLE IF NOT EXISTS holo.ingest_source_rows {{ON_CLUSTER}}
(
  stage_id        String,
  seq             UInt64                 COMMENT 'the row''s place in the feed: ties are broken in feed order, as the rule always did',
  ref_kind        LowCardinality(String),
  ref_value       String,
  finish          LowCardinality(String) COMMENT 'empty: the feed does not say',
  print_run       LowCardinality(String) COMMENT 'empty: the feed does not say',
  region          LowCardinality(String),
  source          LowCardinality(String),
  price_type      LowCardinality(String),
  grading_company LowCardinality(String),
  grade           LowCardinality(String),
  currency        LowCardinality(String),
  amount          String                 COMMENT 'decimal text exactly as parsed',
  as_of           Date,
  observation_id  String,
  refused         String                 COMMENT 'why the row was refused at parse; empty when it is a price',
  refused_ref     String                 COMMENT 'the reference the refusal is listed under',
  staged_at       DateTime DEFAULT now()
)
ENGINE = {{REPLICATED}}MergeTree
PARTITION BY stage_id
ORDER BY seq
TTL staged_at + INTERVAL 1 DAY;

-- The staged rows mapped to variants (or refused with the reason), with the series outlier flag.
CREATE TABLE IF NOT EXISTS holo.ingest_mapped_rows {{ON_CLUSTER}}
(
  stage_id        String,
  seq             UInt64,
  ref             String                 COMMENT 'the reference a refusal is listed under',
  refused         String                 COMMENT 'why the row is not loaded; empty when it is',
  card_id         UInt32,
  variant_id      UInt32,
  game            LowCardinality(String),
  region          LowCardinality(String),
  source          LowCardinality(String),
  price_type      LowCardinality(String),
  grading_company LowCardinality(String),
  grade           LowCardinality(String),
  currency        LowCardinality(String),
  amount          String,
  as_of           Date,
  observation_id  String,
  is_outlier      Bool                   COMMENT 'an outlier of its own series (the cross-source check comes after)',
  staged_at       DateTime DEFAULT now()
)
ENGINE = {{REPLICATED}}MergeTree
PARTITION BY stage_id
ORDER BY seq
TTL staged_at + INTERVAL 1 DAY;

-- The (variant, source) pairs of a staged batch whose market value disagrees with the other sources.
CREATE TABLE IF NOT EXISTS holo.ingest_cross_source {{ON_CLUSTER}}
(
  stage_id   String,
  variant_id UInt32,
  source     LowCardinality(String),
  message    String COMMENT 'the quarantine entry''s ref: the value and the others'' median',
  staged_at  DateTime DEFAULT now()
)
ENGINE = {{REPLICATED}}MergeTree
PARTITION BY stage_id
ORDER BY (variant_id, source)
TTL staged_at + INTERVAL 1 DAY;

-- A copy of what mapping needs from the PostgreSQL catalogue, one partition per catalogue
-- version (catalogue_version, bumped by triggers on every change): copied once per version, read
-- by every batch of that version. A copy is complete once its version is in catalogue_copies.
CREATE TABLE IF NOT EXISTS holo.catalogue_refs {{ON_CLUSTER}}
(
  version     UInt64,
  ref_kind    LowCardinality(String) COMMENT 'cross_refs.ref_key, or pokemontcg_id for the catalogue''s own pokemontcg.io ids',
  ref_value   String,
  card_id     UInt32,
  printing_id Nullable(UInt32)       COMMENT 'null: the reference names the card, any printing'
)
ENGINE = {{REPLICATED}}MergeTree
PARTITION BY version
ORDER BY (ref_kind, ref_value)
SETTINGS non_replicated_deduplication_window = 100;

CREATE TABLE IF NOT EXISTS holo.catalogue_variants {{ON_CLUSTER}}
(
  version     UInt64,
  card_id     UInt32,
  game        LowCardinality(String),
  printing_id UInt32,
  print_run   LowCardinality(String),
  variant_id  UInt32,
  finish      LowCardinality(String)
)
ENGINE = {{REPLICATED}}MergeTree
PARTITION BY version
ORDER BY (card_id, printing_id, variant_id)
SETTINGS non_replicated_deduplication_window = 100;

CREATE TABLE IF NOT EXISTS holo.catalogue_copies {{ON_CLUSTER}}
(
  version   UInt64,
  copied_at DateTime DEFAULT now()
)
ENGINE = {{REPLICATED}}ReplacingMergeTree
ORDER BY version;
