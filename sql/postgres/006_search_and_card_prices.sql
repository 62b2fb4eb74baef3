-- Legacy search: PostgreSQL full-text (simple dictionary: card names are not English prose) and
-- trigram similarity for misspellings and partial names.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
ALTER TABLE cards ADD COLUMN name_tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', name)) STORED;
CREATE INDEX cards_name_fts ON cards USING gin (name_tsv);
CREATE INDEX cards_name_trgm ON cards USING gin (lower(name) gin_trgm_ops);
CREATE INDEX cards_rarity ON cards (game_id, rarity);
CREATE INDEX cards_created ON cards (created_at DESC, id DESC);

-- One reference price per card: the lowest current US marketplace `market` price (USD, ungraded)
-- of the card's primary variant (unlimited print run, not reverse holo, lowest id first).
-- Moved forward after every price load for the cards it touched; read by search, top cards, set
-- statistics and every list that shows a card's price, so none of them needs ClickHouse.
CREATE TABLE card_best_prices (
  card_id    integer PRIMARY KEY REFERENCES cards (id) ON DELETE CASCADE,
  variant_id integer NOT NULL REFERENCES variants (id),
  best_price numeric(18, 4) NOT NULL,
  currency   text NOT NULL DEFAULT 'USD',
  as_of      date NOT NULL
) WITH (fillfactor = 80);
CREATE INDEX card_best_prices_price ON card_best_prices (best_price DESC, card_id);
