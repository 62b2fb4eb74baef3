-- The seller marketplace, second part: bids and transactions (spec: "Bid", "Transaction",
-- "Transaction status"). A sale is one transaction per listing: the listing's row lock decides
-- who gets it, and a unique index is the last guard.
CREATE TABLE bids (
  id         integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  listing_id integer NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
  bidder_id  integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  amount     numeric(12, 2) NOT NULL CHECK (amount > 0),
  message    text CHECK (length(message) <= 500),
  -- open until the seller accepts it (accepted) or the listing is sold another way (closed).
  status     text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'accepted', 'closed')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bids_of_listing ON bids (listing_id, id);

CREATE TABLE transactions (
  id              integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  listing_id      integer NOT NULL REFERENCES listings (id),
  bid_id          integer REFERENCES bids (id),
  buyer_id        integer NOT NULL REFERENCES users (id),
  seller_id       integer NOT NULL REFERENCES users (id),
  amount          numeric(12, 2) NOT NULL CHECK (amount > 0),
  currency        text NOT NULL DEFAULT 'EUR',
  handling_fee    numeric(12, 2) NOT NULL CHECK (handling_fee >= 0),
  buyer_total     numeric(12, 2) NOT NULL,
  status          text NOT NULL DEFAULT 'awaiting_payment'
                  CHECK (status IN ('awaiting_payment', 'paid', 'shipped', 'delivered', 'completed', 'cancelled', 'disputed')),
  carrier         text,
  tracking_number text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX transactions_one_per_listing ON transactions (listing_id) WHERE status <> 'cancelled';
CREATE INDEX transactions_of_buyer ON transactions (buyer_id, id DESC);
CREATE INDEX transactions_of_seller ON transactions (seller_id, id DESC);

-- Every change of a transaction's state, with who made it and when.
CREATE TABLE transaction_events (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transaction_id integer NOT NULL REFERENCES transactions (id),
  actor_id       integer REFERENCES users (id),
  from_status    text,
  to_status      text NOT NULL,
  at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX transaction_events_of ON transaction_events (transaction_id, id);

-- A transaction as its parties read it.
CREATE VIEW transaction_records AS
SELECT t.id, t.listing_id, t.bid_id, t.buyer_id, t.seller_id, b.username AS buyer_username, s.username AS seller_username,
       c.name AS card_name, t.amount::float8 AS amount, t.currency, t.handling_fee::float8 AS handling_fee,
       t.buyer_total::float8 AS buyer_total, t.status, t.carrier, t.tracking_number,
       to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
       to_char(t.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS updated_at
FROM transactions t
JOIN users b ON b.id = t.buyer_id
JOIN users s ON s.id = t.seller_id
JOIN listings l ON l.id = t.listing_id
JOIN cards c ON c.id = l.card_id;
