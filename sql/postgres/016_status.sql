-- What the status page is made of. feed_runs: the last time each source's feed was checked
-- (loaded, or unchanged upstream) per game, written at the end of every feed ingestion; the
-- freshness checks read it. status_incidents: periods in which a check was not ok, opened and
-- resolved by the status monitor; at most one open incident per check.
CREATE TABLE feed_runs (
  source          text NOT NULL,
  game            text NOT NULL,
  last_status     text NOT NULL CHECK (last_status IN ('loaded', 'not-modified')),
  last_checked_at timestamptz NOT NULL DEFAULT now(),
  last_loaded_at  timestamptz,
  PRIMARY KEY (source, game)
);

CREATE TABLE status_incidents (
  id           integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  check_name   text NOT NULL,
  title        text NOT NULL,
  severity     text NOT NULL CHECK (severity IN ('degraded', 'down')),
  detail       text NOT NULL,
  opened_at    timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  resolved_at  timestamptz,
  CHECK (resolved_at IS NULL OR resolved_at >= opened_at)
);
CREATE UNIQUE INDEX status_incidents_one_open ON status_incidents (check_name) WHERE resolved_at IS NULL;
CREATE INDEX status_incidents_recent ON status_incidents (opened_at DESC, id DESC);

CREATE VIEW status_incident_records AS
SELECT id, check_name AS "check", title, severity, detail,
       CASE WHEN resolved_at IS NULL THEN 'open' ELSE 'resolved' END AS status,
       to_char(opened_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS opened_at,
       to_char(last_seen_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS last_seen_at,
       to_char(resolved_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS resolved_at,
       round(extract(epoch FROM coalesce(resolved_at, now()) - opened_at))::int AS duration_s,
       opened_at AS opened_at_ts
FROM status_incidents;
