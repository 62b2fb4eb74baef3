-- Decks (issue 16 §4; spec "Deck"): a named list of cards of one game in sections, own or public.
CREATE TABLE decks (
  id         integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id    integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  game_id    integer NOT NULL REFERENCES games (id),
  name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  format     text CHECK (length(format) <= 40),
  is_public  boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX decks_of_user ON decks (user_id, id);
CREATE INDEX decks_public ON decks (game_id, id DESC) WHERE is_public;

CREATE TABLE deck_cards (
  deck_id  integer NOT NULL REFERENCES decks (id) ON DELETE CASCADE,
  card_id  integer NOT NULL REFERENCES cards (id),
  section  text NOT NULL CHECK (section IN ('main', 'sideboard', 'commander')),
  quantity integer NOT NULL CHECK (quantity BETWEEN 1 AND 999),
  PRIMARY KEY (deck_id, section, card_id)
);
