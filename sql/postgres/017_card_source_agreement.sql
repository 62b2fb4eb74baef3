-- The cross-source correlation of each card (POST /api/price-intelligence/correlate): its sources'
-- 30-day medians of one variant compared, the consensus price and who disagrees with it. Kept so
-- reads never recompute it; rewritten by every correlation run.
CREATE TABLE card_source_agreement (
  card_id            integer PRIMARY KEY REFERENCES cards (id) ON DELETE CASCADE,
  variant_id         integer NOT NULL REFERENCES variants (id),
  consensus_usd      numeric(18, 4) NOT NULL,
  confidence         text NOT NULL CHECK (confidence IN ('high', 'medium', 'low')),
  agreeing_sources   integer NOT NULL,
  considered_sources integer NOT NULL,
  spread_pct         numeric(12, 2) NOT NULL,
  disagreeing        jsonb NOT NULL,  -- [{source, median_usd, delta_pct}]
  correlated_at      timestamptz NOT NULL DEFAULT now()
);
