-- Catalogue: games → sets → cards → printings → variants, with images and neutral cross-references.
-- Ids are identities that never change once issued; importers upsert on external_key, so
-- re-importing an upstream file keeps every existing id and only adds what is new.

CREATE TABLE games (
  id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  slug        text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9][a-z0-9-]*$'),
  name        text NOT NULL,
  active      boolean NOT NULL DEFAULT true,
  publisher   text,
  website_url text,
  description text,
  logo_url    text,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sets (
  id            integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY, -- globally unique across games
  game_id       integer NOT NULL REFERENCES games (id),
  external_key  text NOT NULL UNIQUE,                           -- '<upstream>:<upstream set id>'
  code          text NOT NULL,
  name          text NOT NULL,
  series        text,
  release_date  date,
  total_cards   integer NOT NULL DEFAULT 0 CHECK (total_cards >= 0),
  printed_total integer,
  is_promo      boolean NOT NULL DEFAULT false,
  language      text NOT NULL DEFAULT 'en',
  logo_url      text,
  symbol_url    text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sets_game_release ON sets (game_id, release_date DESC, id);

CREATE TABLE cards (
  id               integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY, -- shared by the v2 and legacy surfaces
  game_id          integer NOT NULL REFERENCES games (id),
  set_id           integer NOT NULL REFERENCES sets (id),
  external_key     text NOT NULL UNIQUE,
  name             text NOT NULL,
  collector_number text NOT NULL,
  rarity           text,
  card_type        text,
  subtypes         text[] NOT NULL DEFAULT '{}',
  artist           text,
  attributes       jsonb NOT NULL DEFAULT '{}',
  legalities       jsonb NOT NULL DEFAULT '{}',
  master_card_id   integer REFERENCES cards (id),           -- cross-language link, null until known
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cards_set_number ON cards (set_id, collector_number, id);
CREATE INDEX cards_game_name ON cards (game_id, lower(name));

CREATE TABLE printings (
  id               integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  card_id          integer NOT NULL REFERENCES cards (id),
  external_key     text NOT NULL UNIQUE,
  language         text NOT NULL DEFAULT 'en',
  print_run        text NOT NULL DEFAULT 'unlimited',
  collector_number text NOT NULL,
  is_promo         boolean NOT NULL DEFAULT false
);
CREATE INDEX printings_card ON printings (card_id, id);

CREATE TABLE variants (
  id                integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  printing_id       integer NOT NULL REFERENCES printings (id),
  external_key      text NOT NULL UNIQUE,
  finish            text NOT NULL,          -- normal, holofoil, reverse-holofoil, foil, rainbow-foil, cold-foil, etched, ...
  variant_label     text NOT NULL,
  print_rarity      text,
  is_ex             boolean,
  is_v              boolean,
  image_url         text,
  image_is_fallback boolean
);
CREATE INDEX variants_printing ON variants (printing_id, id);

CREATE TABLE images (
  id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  card_id     integer NOT NULL REFERENCES cards (id),
  source      text NOT NULL,                -- upstream that published the picture
  kind        text NOT NULL,                -- small, large
  source_url  text NOT NULL,
  width       integer NOT NULL,
  height      integer NOT NULL,
  UNIQUE (card_id, source, kind)
);

-- The six neutral cross-reference keys of the spec. printing_id is set where the upstream id
-- names one printing (a TCGplayer product is one printing of a card).
CREATE TABLE cross_refs (
  card_id     integer NOT NULL REFERENCES cards (id),
  printing_id integer REFERENCES printings (id),
  ref_key     text NOT NULL CHECK (ref_key IN ('eu_marketplace_product_id', 'us_marketplace_product_id', 'price_guide_id',
                                               'mtg_dataset_uuid', 'mtg_card_db_id', 'ygo_card_db_id')),
  ref_value   text NOT NULL,
  PRIMARY KEY (card_id, ref_key, ref_value)
);
CREATE INDEX cross_refs_lookup ON cross_refs (ref_key, ref_value);

-- Latest non-outlier price per series, materialised from ClickHouse price_latest after every load,
-- so the hottest read (card detail) never costs a ClickHouse query.
CREATE TABLE variant_prices_latest (
  variant_id      integer NOT NULL REFERENCES variants (id),
  region          text NOT NULL,
  source          text NOT NULL,
  price_type      text NOT NULL,
  grading_company text NOT NULL,
  grade           text NOT NULL,
  currency        text NOT NULL,
  amount          numeric(18, 4) NOT NULL,
  as_of           date NOT NULL,
  PRIMARY KEY (variant_id, region, source, price_type, grading_company, grade)
);
