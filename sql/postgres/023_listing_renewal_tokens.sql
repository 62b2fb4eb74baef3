-- Renewal links e-mailed when a listing expires (spec: "GET /listing-renewal/{token}": signed,
-- single-use, valid 7 days). The token carries its own signature; only a digest of its random part
-- is kept here, and using it marks the row, so a token renews once.
CREATE TABLE listing_renewal_tokens (
  nonce_sha256 bytea PRIMARY KEY,
  listing_id   integer NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX listing_renewal_tokens_listing ON listing_renewal_tokens (listing_id);
