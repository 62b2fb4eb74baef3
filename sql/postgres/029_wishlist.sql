-- Wishlists (issue 16 §2): the cards a collector wants, optionally with the most they would pay
-- (USD, the market price's currency). A price run that takes a card under it notifies once:
-- notified_at is set then, and cleared when the price rises above it again.
CREATE TABLE wishlist_items (
  id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id     integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  card_id     integer NOT NULL REFERENCES cards (id) ON DELETE CASCADE,
  max_price   numeric(12, 2) CHECK (max_price > 0),
  notified_at timestamptz,
  added_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, card_id)
);
-- Price runs look up the thresholds of the cards they priced.
CREATE INDEX wishlist_thresholds ON wishlist_items (card_id) WHERE max_price IS NOT NULL;
