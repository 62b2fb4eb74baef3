-- Parameterised view: holo.card_market_daily_usd (007) for many cards and every variant of each,
-- with the card in each row: the batch the per-card analytics are precomputed from when prices land
-- (ingest/analytics/precompute.ts). Its body must stay the per-card view's, row for row;
-- test/card-analytics.test.ts compares the answers of both on a sample of the small demo. Use:
-- SELECT … FROM holo.cards_market_daily_usd(card_ids = [1, 2], since = '2026-01-01').
CREATE VIEW IF NOT EXISTS holo.cards_market_daily_usd {{ON_CLUSTER}} AS
WITH daily AS (
  SELECT p.card_id AS card_id, p.as_of AS day, p.variant_id AS variant_id, p.region AS region, p.source AS source,
         p.grading_company AS grading_company, p.grade AS grade, any(p.currency) AS currency,
         quantileExactInclusive(0.5)(toFloat64(p.amount)) AS price, count() AS observations
  FROM holo.price_points AS p FINAL
  -- Conditions on sorting-key columns alone, which every version of a row shares, filter before
  -- FINAL merges versions (PREWHERE): the same rows, FINAL merging a fifth of them (the batch's
  -- daily rows took 0.4 s instead of 1.1 s for 500 cards). is_outlier is not in the key: a newer
  -- version may change it, so it is tested after FINAL, as in the per-card view.
  PREWHERE p.card_id IN {card_ids:Array(UInt32)}
    AND p.as_of >= {since:Date}
    AND (p.grading_company != 'raw' OR p.price_type IN ('market', 'trend', 'raw_us', 'raw_jp', 'last_sold'))
  WHERE NOT p.is_outlier
  GROUP BY p.card_id, p.as_of, p.variant_id, p.region, p.source, p.grading_company, p.grade
)
SELECT d.card_id AS card_id, d.day AS day, d.variant_id AS variant_id, d.region AS region, d.source AS source,
       d.grading_company AS grading_company, d.grade AS grade, d.currency AS currency,
       d.price AS price, if(d.currency = 'USD', d.price, d.price * fx.usd_per_unit) AS price_usd,
       d.observations AS observations
FROM daily AS d
ASOF LEFT JOIN holo.fx_to_usd AS fx ON d.currency = fx.currency AND d.day >= fx.day
WHERE d.currency = 'USD' OR fx.usd_per_unit > 0;

-- One batch of the precompute's daily rows (the view above for a batch of cards, read once and
-- used by both of the batch's queries: reading the view twice cost about half of each batch).
-- Emptied before each batch; one precompute runs at a time (a PostgreSQL advisory lock). In
-- memory, on the node the precompute talks to: nothing here outlives a batch.
CREATE TABLE IF NOT EXISTS holo.card_analytics_batch {{ON_CLUSTER}}
(
  card_id         UInt32,
  variant_id      UInt32,
  grading_company LowCardinality(String),
  grade           LowCardinality(String),
  day             Date,
  source          LowCardinality(String),
  region          LowCardinality(String),
  price_usd       Float64
)
ENGINE = Memory;
