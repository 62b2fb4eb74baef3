-- A collector's cards (issue 16 §1). One row per card, variant, condition and grading: adding the
-- same again adds to its quantity, and a CSV import sets the quantities of the rows it names.
CREATE TABLE collection_entries (
  id              integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id         integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  card_id         integer NOT NULL REFERENCES cards (id),
  variant_id      integer NOT NULL REFERENCES variants (id),
  quantity        integer NOT NULL CHECK (quantity BETWEEN 1 AND 100000),
  condition       text NOT NULL CHECK (condition IN ('NM', 'LP', 'MP', 'HP', 'DMG')),
  price_paid      numeric(12, 2) CHECK (price_paid >= 0),
  graded          boolean NOT NULL DEFAULT false,
  grading_company text CHECK (grading_company IN ('PSA', 'BGS', 'CGC')),
  grade           numeric(3, 1) CHECK (grade BETWEEN 1 AND 10),
  added_at        timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  CHECK (graded OR (grading_company IS NULL AND grade IS NULL))
);
CREATE UNIQUE INDEX collection_entry_identity
  ON collection_entries (user_id, card_id, variant_id, condition, graded, coalesce(grading_company, ''), coalesce(grade, 0));
CREATE INDEX collection_entries_of_user ON collection_entries (user_id, id);
