-- Payments through Stripe Checkout (issue 15 §6). A transaction awaiting payment has at most one
-- open checkout session at a time (the buyer's repeated clicks reuse it); Stripe's signed
-- webhook events are kept by id, so a retried delivery changes nothing the second time.
CREATE TABLE checkout_sessions (
  id             text PRIMARY KEY, -- Stripe's cs_…
  transaction_id integer NOT NULL REFERENCES transactions (id),
  url            text NOT NULL,
  amount_cents   integer NOT NULL CHECK (amount_cents > 0),
  currency       text NOT NULL,
  expires_at     timestamptz NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  -- set by checkout.session.completed (paid) or .expired
  completed_at   timestamptz,
  expired_at     timestamptz,
  payment_intent text,
  -- the refund of its payment when the paid transaction was cancelled
  refund_id      text
);
CREATE INDEX checkout_sessions_of ON checkout_sessions (transaction_id, created_at DESC);

CREATE TABLE stripe_events (
  id          text PRIMARY KEY, -- Stripe's evt_…
  type        text NOT NULL,
  -- what it did: paid, duplicate delivery of a settled session, amount_mismatch, unknown_session, ignored …
  outcome     text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);

-- A move made by no user: the payment provider's, named here (e.g. stripe:evt_…).
ALTER TABLE transaction_events ADD COLUMN source text;
