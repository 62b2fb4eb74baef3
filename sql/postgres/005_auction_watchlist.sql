-- The cards whose completed auctions Holo reads every day (one marketplace search per card, so the
-- list is bounded). Seeded with the most valuable cards when the demo loads; a stable list keeps
-- a day's auction feed the same however often the day is scraped.
CREATE TABLE auction_watchlist (
  card_id  integer PRIMARY KEY REFERENCES cards (id) ON DELETE CASCADE,
  added_at timestamptz NOT NULL DEFAULT now(),
  reason   text NOT NULL
);
