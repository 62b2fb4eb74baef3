-- The sources report (npm run ingest -- sources, GET /api/admin/ingest/sources): the rows each
-- feed's last load wrote, and each feed's last failure with the upstream's own reason (kept until
-- the feed next loads, so an operator sees why a source is stale).
ALTER TABLE feed_runs ADD COLUMN last_rows integer;

CREATE TABLE feed_failures (
  source    text NOT NULL,
  game      text NOT NULL,
  failed_at timestamptz NOT NULL DEFAULT now(),
  error     text NOT NULL,
  PRIMARY KEY (source, game)
);
