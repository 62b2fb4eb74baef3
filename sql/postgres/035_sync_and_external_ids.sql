-- Incremental sync (issue 18). A client that synced yesterday asks for what changed since.
--
-- Change feeds page by (writing transaction, sequence): a row written by a transaction that is
-- still running when a page is read has a transaction id at or above that read's snapshot xmin,
-- so feeds serve only rows below it and a later commit can never land behind a cursor already
-- handed out. A row changed again moves forward to its new position.

-- Latest prices: when a series' value last changed, and its position in the price-changes feed.
CREATE SEQUENCE price_change_seq;
ALTER TABLE variant_prices_latest
  ADD COLUMN changed_at  timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN change_xid  xid8 NOT NULL DEFAULT pg_current_xact_id(),
  ADD COLUMN change_seq  bigint NOT NULL DEFAULT nextval('price_change_seq');
CREATE INDEX variant_prices_latest_feed ON variant_prices_latest (change_xid, change_seq);
CREATE INDEX variant_prices_latest_changed ON variant_prices_latest (changed_at);

-- Catalogue listings filter on when a set or card last changed (a re-import that changes nothing
-- leaves updated_at alone: catalogue_upsert_*.sql).
CREATE INDEX sets_game_updated ON sets (game_id, updated_at);
CREATE INDEX cards_set_updated ON cards (set_id, updated_at);

-- The ids other services give a variant, one value per kind, and every change to them with its
-- reason. catalogueSync writes both in the catalogue's transaction.
CREATE TABLE variant_external_ids (
  variant_id integer NOT NULL REFERENCES variants (id),
  id_kind    text NOT NULL CHECK (id_kind IN ('cardmarket_product', 'tcgplayer_product', 'tcgplayer_sku', 'price_guide',
                                              'scryfall', 'pokemontcg_io')),
  id_value   text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (variant_id, id_kind)
);
CREATE INDEX variant_external_ids_lookup ON variant_external_ids (id_kind, id_value);

CREATE TABLE external_id_changes (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  variant_id integer NOT NULL REFERENCES variants (id),
  card_id    integer NOT NULL REFERENCES cards (id),
  id_kind    text NOT NULL,
  before     text,
  after      text NOT NULL,
  reason     text NOT NULL,
  changed_at timestamptz NOT NULL DEFAULT now(),
  change_xid xid8 NOT NULL DEFAULT pg_current_xact_id()
);
CREATE INDEX external_id_changes_feed ON external_id_changes (change_xid, id);
CREATE INDEX external_id_changes_changed ON external_id_changes (changed_at);

-- What an upstream says about a set beyond the columns (pokemontcg.io: legalities), served back by
-- the pokemontcg.io compatibility layer.
ALTER TABLE sets ADD COLUMN attributes jsonb NOT NULL DEFAULT '{}';
