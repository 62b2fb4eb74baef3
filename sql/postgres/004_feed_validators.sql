-- HTTP validators of the last feed document each URL returned, for conditional GETs: a scheduled
-- scrape of a feed the upstream has not changed since the last run costs a 304 and loads nothing.
CREATE TABLE feed_validators (
  url           text PRIMARY KEY,
  etag          text,
  last_modified text,
  fetched_at    timestamptz NOT NULL DEFAULT now()
);
