-- Ratings of a transaction (spec: "Rate a transaction", "Reputation"): once per party, after
-- delivery. The buyer rates the seller and the seller the buyer; a user's reputation is what they
-- received.
CREATE TABLE transaction_ratings (
  transaction_id integer NOT NULL REFERENCES transactions (id),
  rater_id       integer NOT NULL REFERENCES users (id),
  ratee_id       integer NOT NULL REFERENCES users (id),
  rating         smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
  review         text CHECK (length(review) <= 1000),
  created_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (transaction_id, rater_id)
);
CREATE INDEX transaction_ratings_received ON transaction_ratings (ratee_id, created_at DESC);
