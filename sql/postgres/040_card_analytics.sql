-- Per-card analytics precomputed in ClickHouse when prices land (issue 35;
-- ingest/analytics/precompute.ts): the answers of the per-card ClickHouse queries behind
-- price-aggregates, stash-score and predict, for every single-variant scope of a card, so that a
-- request reads them here in about a millisecond instead of queueing behind ClickHouse.
-- A precompute writes a card's answers under a new generation, then makes that generation current
-- in one update; a reader takes each card's newest generation not beyond the current one, in one
-- statement, so an answer never mixes two precomputes.
CREATE TABLE card_analytics (
  card_id    integer NOT NULL,
  query      text NOT NULL,   -- the ClickHouse query file the answers stand for (legacy_price_analysis, …)
  generation bigint NOT NULL,
  answers    json NOT NULL,   -- {canonical parameters: rows exactly as ClickHouse returned them}
  PRIMARY KEY (card_id, generation, query)
);

-- One row: the current generation, the prices epoch and the day (UTC) it was computed under, and
-- since when a precompute has been running (its answers stand in for the new epoch's meanwhile).
CREATE TABLE card_analytics_state (
  only_row      boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  generation    bigint NOT NULL,
  prices_epoch  text NOT NULL,
  day           date NOT NULL,
  watermark     timestamptz NOT NULL,  -- price rows loaded before this are in the current generation
  pending_since timestamptz
);
