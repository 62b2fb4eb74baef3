-- Sealed products (booster boxes, boosters, starter decks, promo boxes, lots): bought and collected
-- unopened, priced like cards but not cards. Same identity rule as the catalogue: upserts on
-- external_key, ids never change. set_id when the product belongs to a catalogued set.
CREATE TABLE sealed_products (
  id                        integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  game_id                   integer NOT NULL REFERENCES games (id),
  set_id                    integer REFERENCES sets (id),
  external_key              text NOT NULL UNIQUE,
  name                      text NOT NULL,
  category                  text NOT NULL,
  set_code                  text,
  eu_marketplace_product_id text,
  added_at                  date,
  created_at                timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sealed_products_game ON sealed_products (game_id, category, id);
